"""Gan Deng Yan at the table: the site plug-in (see ``games.tables``)."""

from django.utils.translation import gettext_lazy as _

from games.tables.base import Labels

BLURB = _(
    "Beat the last play with the same shape exactly one rank higher, or stare. "
    "Wild jokers, bombs and a stock that refills the hands; losses multiply up to 64×."
)
LABELS = Labels(_("Gan Deng Yan"), _("Staring Eyes"), _("2–4 players"), "♦♣", BLURB)

# Deals Hard samples per reviewed decision (the manifest's review budget).
REVIEW_SAMPLES = 48
