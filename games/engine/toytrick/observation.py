"""Toy Trick's views, typed (games/engine/base.py ``PublicView``, ``Observation``), and the
rules fact the table's pacing asks: did a trick just close."""

from __future__ import annotations

from games.engine.base import Observation, PublicView, Refusal, Trick


class ToyTrickView(PublicView):
    hand_number: int
    leader: int | None  # who leads the open trick; None once the hand is over
    to_move: int | None
    hand_sizes: list[int]
    trick: Trick | None  # the open trick; None once the hand is over
    last_trick: Trick | None
    tricks: list[Trick]  # the closed tricks of this hand, in order
    won: list[int]  # tricks taken this hand, per seat
    voids: list[list[str]]  # per seat, the suits it has shown it no longer holds
    prior_totals: list[int]
    match_over: bool
    winner: int | None  # the match's winner once it is over


class ToyTrickObservation(ToyTrickView, Observation):
    legal_cards: list[str]  # the cards the seat may play now ([] when not its turn)
    unplayable: dict[str, Refusal]  # why each other card may not be played now


def trick_closed(before: ToyTrickView | None, after: ToyTrickView) -> bool:
    """The second card of a trick was just played: the closed trick stays in view."""
    return after["last_trick"] is not None and not (after["trick"] and after["trick"]["plays"])
