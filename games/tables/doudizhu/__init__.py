"""Dou Dizhu on the site: its labels; its table is still to come (see ``games.tables``)."""

from django.utils.translation import gettext_lazy as _

from games.tables.base import Labels

LABELS = Labels(
    name=_("Dou Dizhu"),
    subtitle=_("Fight the Landlord"),
    players=_("3 players"),
    suits="♥♠",
    blurb=_(
        "Bid to become the landlord and play alone with 20 cards against two peasants. "
        "Chains, airplanes, bombs and the rocket."
    ),
)
