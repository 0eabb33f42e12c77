"""Toy Trick at the table: the site plug-in of the game for the tests only (see
``games.tables``). Players never see it, so its own words stay English: only the sentences
the site already has go through the catalogs."""

from games.tables.base import Labels

LABELS = Labels(
    "Toy Trick",
    "A game for the tests",
    "2 players",
    "♠♥",
    "Three cards each, follow suit, a point per trick. Used by the tests only.",
)

# Deals Hard plays each card out on per reviewed decision (all of them, at most 84).
REVIEW_SAMPLES = 84
