"""Card codes shared by all games (ENGINE_CONTRACT.md, "Cards").

A card is a two-character string, rank then suit; the jokers are ``BJ`` and ``RJ``.
"""

from __future__ import annotations

import random

RANKS = "23456789TJQKA"
SUITS = "SHDC"
JOKERS = ("BJ", "RJ")

STANDARD_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
FULL_DECK: tuple[str, ...] = STANDARD_DECK + JOKERS
CARD_CODES = frozenset(FULL_DECK)  # every card code: ``is_card`` for many cards at once

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def rank_of(card: str) -> str:
    """The rank character of a card, or the joker's own code."""
    return card if card in JOKERS else card[0]


def suit_of(card: str) -> str | None:
    return None if card in JOKERS else card[1]


def is_card(code: object) -> bool:
    return isinstance(code, str) and (
        code in JOKERS or (len(code) == 2 and code[0] in RANKS and code[1] in SUITS)
    )


def shuffled(deck: tuple[str, ...] | list[str], rng: random.Random) -> list[str]:
    """A shuffled copy of ``deck``, drawn from the given generator only."""
    cards = list(deck)
    rng.shuffle(cards)
    return cards


def deal_rng(seed: int, deal_number: int) -> random.Random:
    """The generator for one deal of a match.

    RULINGS.md: a deal is fully determined by the match's seed and the deal's number, so
    any deal can be replayed on its own without replaying the ones before it.
    """
    return random.Random(f"{seed}:{deal_number}")


def check_deal(cards, deck) -> None:
    """A recorded deal handed back to an engine must be exactly the game's deck, once each."""
    if sorted(cards) != sorted(deck):
        raise ValueError("the deal does not hold the game's cards exactly once each")
