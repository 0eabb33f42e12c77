"""What a seat, or a spectator, may know (ENGINE_CONTRACT.md "observation", RULINGS.md
"Gong Zhu" exposure phase; the open table).

In the exposure phase a seat learns only that it is the exposure phase and whether it has
decided itself: neither who else has decided nor what they chose. Once all four decided the
exposures are shown together. In play the table is open: every trick played this hand
(who played what), each seat's exposed and collected point cards, the voids shown, hand
scores and totals, and the all-hearts threat. Other seats' cards appear only once played or
exposed.
"""

from __future__ import annotations

from games.engine.base import Observation, PublicView, Refusal, Trick
from games.engine.cards import SUITS
from games.engine.gongzhu.rules import (
    EXPOSE,
    OVER,
    all_exposed,
    exposable,
    hand_result,
    hand_scores,
    legal_cards,
    match_over,
    out_seats,
    refuse_play,
    to_move,
    totals,
    winner,
)
from games.engine.gongzhu.scoring import HEART_VALUES
from games.engine.gongzhu.state import SEATS, State


class GongZhuView(PublicView):
    """Gong Zhu's public view: every key, in both phases (None / [] where the exposure
    phase has nothing to show yet)."""

    hand_number: int
    phase: str  # "expose", "play", "over"
    hand_sizes: list[int]
    prior_totals: list[int]
    out: list[int]  # the seats at -1000 or below
    match_over: bool
    winner: int | None  # the match's winner once it is over
    to_move: int | None  # None in the exposure phase (simultaneous) and once the hand is over
    leader: int | None  # who leads (led) the current trick; None while unknown
    exposed: list[list[str]] | None  # per seat, its exposed cards (None while deciding)
    exposed_unplayed: list[list[str]] | None  # per seat, its exposed cards still held
    all_exposed: list[str] | None  # every exposed card, sorted (None while deciding)
    trick: Trick | None  # the open trick (None in the exposure phase)
    last_trick: Trick | None
    tricks: list[Trick]  # the closed tricks of this hand, in order
    collected: list[list[str]]  # per seat, the point cards it has taken
    hand_scores: list[int]
    voids: list[list[str]]  # per seat, the suits it has shown it no longer holds
    all_hearts_threat: int | None


class GongZhuObservation(GongZhuView, Observation):
    """One seat's observation: the public view, its hand and its own choices."""

    decided: bool  # this seat has chosen its exposure (always True after the exposure phase)
    my_exposure: list[str] | None  # None while undecided
    exposable: list[str]  # the cards it may expose ([] after the exposure phase)
    legal_cards: list[str]  # the cards it may play now ([] when not its turn)
    unplayable: dict[str, Refusal]  # on its turn, each held card it may not play and why


def _plays(leader: int, cards) -> list[dict]:
    return [{"seat": (leader + i) % SEATS, "card": c} for i, c in enumerate(cards)]


def _trick(leader: int, cards, winner_seat: int | None) -> dict:
    return {"leader": leader, "plays": _plays(leader, cards), "winner": winner_seat}


def voids(state: State) -> list[list[str]]:
    """Per seat, the suits it has shown it no longer holds (it did not follow them)."""
    shown = [set() for _ in range(SEATS)]
    tricks = [(lead, cards) for lead, cards, _ in state.tricks]
    if state.trick:
        tricks.append((state.leader, state.trick))
    for lead, cards in tricks:
        suit = cards[0][1]
        for i in range(1, len(cards)):
            if cards[i][1] != suit:
                shown[(lead + i) % SEATS].add(suit)
    return [[s for s in SUITS if s in v] for v in shown]


def all_hearts_threat(state: State) -> int | None:
    """The seat that has taken every heart played so far, if any heart has been taken."""
    holders = [s for s in range(SEATS) if any(c in HEART_VALUES for c in state.taken[s])]
    return holders[0] if len(holders) == 1 else None


def _table(state: State) -> GongZhuView:
    """Everything public about the hand, shared by every seat's view and the spectator's."""
    current = totals(state)
    view = {
        "game": "gongzhu",
        "hand_number": state.hand_number,
        "phase": state.phase,
        "hand_sizes": [len(h) for h in state.hands],
        "prior_totals": list(state.prior_totals),
        "totals": current,
        "out": out_seats(current),
        "match_over": match_over(state),
        "winner": winner(state),
        # Gong Zhu has no dealer: the seat that opens the hand is whoever leads its first trick
        # by the rules (the last hand's pig-taker), or None in hand 1 (the holder of 2S, not
        # told). ``new_match_from_deal`` takes it back as its ``dealer``.
        "dealer": state.first_leader if state.open_leader else None,
    }
    if state.phase == EXPOSE:
        view.update(
            to_move=None,
            # In hand 1 the leader is the holder of 2S: unknown until play begins.
            leader=state.leader if state.open_leader else None,
            exposed=None,
            exposed_unplayed=None,
            all_exposed=None,
            trick=None,
            last_trick=None,
            tricks=[],
            collected=[[] for _ in range(SEATS)],
            hand_scores=[0] * SEATS,
            voids=[[] for _ in range(SEATS)],
            all_hearts_threat=None,
            result=None,
        )
        return view
    movers = to_move(state)
    last = state.tricks[-1] if state.tricks else None
    view.update(
        to_move=movers[0] if movers else None,
        leader=state.leader,
        exposed=[list(e) for e in state.exposed],
        exposed_unplayed=[
            [c for c in e if c in h] for e, h in zip(state.exposed, state.hands, strict=True)
        ],
        all_exposed=sorted(all_exposed(state)),
        trick=_trick(state.leader, state.trick, None),
        last_trick=_trick(*last) if last else None,
        tricks=[_trick(*t) for t in state.tricks],
        collected=[list(t) for t in state.taken],
        hand_scores=hand_scores(state),
        voids=voids(state),
        all_hearts_threat=all_hearts_threat(state),
        result=hand_result(state) if state.phase == OVER else None,
    )
    return view


def observation(state: State, seat: int) -> GongZhuObservation:
    view = _table(state)
    hand = state.hands[seat]
    view["seat"] = seat
    view["hand"] = list(hand)
    if state.phase == EXPOSE:
        decided = state.pending[seat] is not None
        view["decided"] = decided
        view["my_exposure"] = list(state.pending[seat]) if decided else None
        view["exposable"] = exposable(hand)
        view["legal_cards"] = []
        view["unplayable"] = {}
    else:
        view["decided"] = True
        view["my_exposure"] = list(state.exposed[seat])
        view["exposable"] = []
        to_play = state.phase != OVER and view["to_move"] == seat
        view["legal_cards"] = legal_cards(state, seat) if to_play else []
        view["unplayable"] = {}
        if to_play:
            for card in hand:
                if card not in view["legal_cards"]:
                    refusal = refuse_play(state, seat, card)
                    view["unplayable"][card] = {"code": refusal.code, "params": refusal.params}
    return view


def public_view(state: State) -> GongZhuView:
    return _table(state)


def trick_closed(before: GongZhuView | None, after: GongZhuView) -> bool:
    """Between two public views (or observations; ``before`` None where there was no move
    before) a trick closed: its fourth card was just played, and the closed trick stays in
    view until the next card."""
    trick = after["trick"]
    return after["last_trick"] is not None and not (trick and trick["plays"])
