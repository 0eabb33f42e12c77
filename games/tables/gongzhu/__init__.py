"""Gong Zhu at the table: the site plug-in (see ``games.tables``)."""

from django.utils.translation import gettext_lazy as _

from games.tables.base import Labels

BLURB = _(
    "Trick-taking for four: dodge the hearts and the pig, catch the goat, and "
    "watch the transformer double everything. Matches run until someone drops to −1000."
)
LABELS = Labels(_("Gong Zhu"), _("Chase the Pig"), _("4 players"), "♠♥", BLURB)

# Deals Hard samples per reviewed decision (the manifest's review budget): a hand of 13
# decisions takes about a second.
REVIEW_SAMPLES = 240
