"""Gong Zhu at the table: the site plug-in (see ``games.tables``)."""

from django.utils.translation import gettext_lazy as _

from games.tables.base import Labels

LABELS = Labels(
    name=_("Gong Zhu"),
    subtitle=_("Chase the Pig"),
    players=_("4 players"),
    suits="♠♥",
    blurb=_(
        "Trick-taking for four: dodge the hearts and the pig, catch the goat, and "
        "watch the transformer double everything. Matches run until someone drops to −1000."
    ),
)
