"""Dou Dizhu on the site: its labels; the table is in this package (see ``games.tables``)."""

from django.utils.translation import gettext_lazy as _

from games.tables.base import Labels

BLURB = _(
    "Bid to become the landlord and play alone with 20 cards against two peasants. "
    "Chains, airplanes, bombs and the rocket."
)
LABELS = Labels(_("Dou Dizhu"), _("Fight the Landlord"), _("3 players"), "♥♠", BLURB)

# Deals Hard samples per reviewed decision (the manifest's review budget).
REVIEW_SAMPLES = 24
