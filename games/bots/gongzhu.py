"""Gong Zhu opponents: Easy, Normal (also the player's Hint) and Hard (gongzhu_hard.py).

Each bot sees its seat's observation, the legal actions and a ``random.Random``, never the
engine state (ENGINE_CONTRACT.md, "Computer opponents"). Normal follows the advice of
the rule text's advice: protect the pig, win the goat with high diamonds, watch the transformer,
shed high hearts early, expose only with safety, stop all hearts.
"""

from __future__ import annotations

import random

from games.engine.cards import STANDARD_DECK
from games.engine.gongzhu import RANK, GongZhuObservation, trick_winner
from games.engine.gongzhu.scoring import GOAT, HEART_VALUES, PIG, TRANSFORMER, quick_score

# Card value for whoever takes it, before the transformer and exposure factors.
POINTS = {**HEART_VALUES, PIG: -100, GOAT: 100}
# Discard order when void: the pig first, then the dearest hearts, then dangerous spades.
DANGER = {"QS": 100, "AH": 60, "KH": 50, "QH": 40, "AS": 35, "KS": 33, "JH": 30}


class View:
    """What a seat knows, read once from its observation."""

    def __init__(self, obs: GongZhuObservation):
        self.seat = obs["seat"]
        self.hand = list(obs["hand"])
        plays = obs["trick"]["plays"] if obs["trick"] else []  # no trick in the exposure phase
        self.plays = [(p["seat"], p["card"]) for p in plays]
        self.trick_cards = [c for _, c in self.plays]
        self.played = set(self.trick_cards)
        for t in obs["tricks"]:
            self.played.update(p["card"] for p in t["plays"])
        mine = set(self.hand)
        self.unseen = [c for c in STANDARD_DECK if c not in mine and c not in self.played]
        self.voids = [set(v) for v in obs["voids"]]
        self.collected = [list(c) for c in obs["collected"]]
        self.exposed = set(obs["all_exposed"] or ())
        self.exposed_by = [list(e) for e in obs["exposed"] or [[]] * 4]
        self.hand_sizes = list(obs["hand_sizes"])
        self.threat = obs["all_hearts_threat"]
        self.led = {t["plays"][0]["card"][1] for t in obs["tricks"]}
        self._exposure_voids(obs)

    def _exposure_voids(self, obs: GongZhuObservation) -> None:
        """An exposed card in the first trick of its suit was its holder's last of that suit."""
        tricks = [t["plays"] for t in obs["tricks"]]
        if self.plays:
            tricks.append([{"seat": s, "card": c} for s, c in self.plays])
        seen_suits = set()
        for plays in tricks:
            suit = plays[0]["card"][1]
            if suit in seen_suits:
                continue
            seen_suits.add(suit)
            for p in plays:
                if p["card"][1] == suit and p["card"] in self.exposed_by[p["seat"]]:
                    self.voids[p["seat"]].add(suit)

    def outstanding(self, suit: str) -> list[str]:
        return [c for c in self.unseen if c[1] == suit]

    def higher_out(self, card: str) -> int:
        return sum(1 for c in self.unseen if c[1] == card[1] and RANK[c] > RANK[card])

    def winner(self) -> tuple[int, str] | None:
        """The seat and card currently winning the trick."""
        if not self.plays:
            return None
        seat = trick_winner(self.plays[0][0], self.trick_cards)
        return seat, dict(self.plays)[seat]

    def gain(self, seat: int, cards) -> int:
        """What taking ``cards`` would change in ``seat``'s hand score."""
        if not any(c in POINTS or c == TRANSFORMER for c in cards):
            return 0
        before = self.collected[seat]
        return quick_score([*before, *cards], self.exposed) - quick_score(before, self.exposed)


def _pick(legal: list[dict], card: str) -> dict:
    for action in legal:
        if action.get("card") == card:
            return action
    return legal[0]


def pick_exposure(legal: list[dict], cards: list[str]) -> dict:
    """The exposure action that exposes exactly ``cards`` (none: the first, empty one)."""
    wanted = set(cards)
    for action in legal:
        if set(action["cards"]) == wanted:
            return action
    return legal[0]


def expose_nothing(legal: list[dict]) -> dict:
    """The exposure phase's empty choice (always legal)."""
    return pick_exposure(legal, [])


# --- Easy -------------------------------------------------------------------------------


class EasyBot:
    """Little thought: never exposes, follows low, discards its highest card, leads at random."""

    def __init__(self, **options):
        pass

    def act(
        self, observation: GongZhuObservation, legal_actions: list[dict], rng: random.Random
    ) -> dict:
        if legal_actions[0]["type"] == "expose":
            return legal_actions[0]
        cards = [a["card"] for a in legal_actions]
        plays = observation["trick"]["plays"]  # a play phase's trick: open, maybe empty
        if not plays:
            return _pick(legal_actions, rng.choice(cards))
        suit = plays[0]["card"][1]
        if cards[0][1] == suit:
            return _pick(legal_actions, min(cards, key=RANK.__getitem__))
        return _pick(legal_actions, max(cards, key=RANK.__getitem__))


# --- Normal -----------------------------------------------------------------------------


def normal_exposure(hand: list[str]) -> list[str]:
    """Expose only what is safe (the rule text's advice: expose only with safety)."""
    chosen = []
    spades = [c for c in hand if c[1] == "S"]
    low_spades = [c for c in spades if RANK[c] < RANK["QS"]]
    # The pig with four or more low spades and neither AS nor KS: it can be shed safely.
    if PIG in hand and len(low_spades) >= 4 and "AS" not in hand and "KS" not in hand:
        chosen.append(PIG)
    diamonds = [c for c in hand if c[1] == "D"]
    # The goat with the diamonds above it: it will come home.
    if GOAT in hand and {"AD", "KD", "QD"} <= set(diamonds):
        chosen.append(GOAT)
    return chosen


def normal_card(obs: GongZhuObservation, cards: list[str]) -> str:
    """Normal's play: a sound club player's heuristics."""
    if len(cards) == 1:
        return cards[0]
    view = View(obs)
    if not view.plays:
        return _normal_lead(view, cards)
    suit = view.plays[0][1][1]
    if cards[0][1] == suit and all(c[1] == suit for c in cards):
        return _normal_follow(view, cards, suit)
    return _normal_discard(view, cards)


def _normal_lead(view: View, cards: list[str]) -> str:
    pig_out = PIG in view.unseen
    best, best_value = cards[0], -(10**9)
    for c in cards:
        suit = c[1]
        higher = view.higher_out(c)
        lower = sum(1 for d in view.unseen if d[1] == suit and RANK[d] < RANK[c])
        # A card others must beat is a safe lead; a card that wins is dangerous.
        value = 10 * min(higher, 4) - 3 * lower - RANK[c]
        if c == PIG:
            value -= 500
        elif c == GOAT:
            value += 300 if higher == 0 and view.gain(view.seat, [c]) > 0 else -200
        elif c == TRANSFORMER:
            value += 150 if higher == 0 and view.gain(view.seat, [c]) >= 0 else -150
        elif suit == "S":
            if pig_out and RANK[c] > RANK["QS"]:
                value -= 200  # leading AS/KS invites the pig
            elif pig_out and RANK[c] < RANK["QS"]:
                value += 15  # fish for the pig with low spades
            if PIG in view.hand and RANK[c] < RANK["QS"]:
                value -= 10  # keep the pig's guards
        elif suit == "H":
            value -= 20 if higher == 0 else 0
            value += HEART_VALUES[c] // 2
        elif suit == "D" and GOAT in view.unseen and higher == 0:
            value += 40  # a winning diamond may draw the goat
        if not view.outstanding(suit):
            value -= 60  # nobody can follow: it surely wins
        if value > best_value:
            best, best_value = c, value
    return best


def _normal_follow(view: View, cards: list[str], suit: str) -> str:
    win_seat, win_card = view.winner()
    last = len(view.plays) == 3
    under = sorted((c for c in cards if RANK[c] < RANK[win_card]), key=RANK.__getitem__)
    over = sorted((c for c in cards if RANK[c] > RANK[win_card]), key=RANK.__getitem__)
    trick = view.trick_cards
    threat = view.threat
    if last:
        # The trick is decided by this card: take it when it costs nothing, shedding the
        # highest card that does.
        best = None
        if over:
            best = max(over, key=lambda c: (view.gain(view.seat, [*trick, c]), RANK[c]))
            if view.gain(view.seat, [*trick, best]) >= 0:
                return best
        if (
            threat is not None
            and threat != view.seat
            and suit == "H"
            and win_seat == threat
            and over
        ):
            return over[0]  # stop all hearts: a small heart costs less than the swing
        if under:
            return _safest_under(view, under, win_seat)
        return best
    # Not last: later seats may still beat or load the trick.
    if suit == "D" and GOAT in trick:
        sure = [c for c in over if view.higher_out(c) == 0]
        if sure and view.gain(view.seat, [*trick, sure[0]]) > 0:
            return sure[0]
    goat_home = GOAT in over and view.higher_out(GOAT) == 0
    if goat_home and view.gain(view.seat, [*trick, GOAT]) > 0:
        return GOAT
    if threat is not None and threat != view.seat and suit == "H" and win_seat == threat and over:
        return over[0]
    if under:
        return _safest_under(view, under, win_seat)
    # Must overtake: the lowest card leaves the later seats the best chance to take over,
    # but never the pig or the transformer if another card will do.
    plain = [c for c in over if c not in (PIG, TRANSFORMER, GOAT)]
    if suit == "S" and PIG in view.unseen:
        plain = [c for c in plain if RANK[c] < RANK["QS"]] or plain
    return plain[0] if plain else over[0]


def _safest_under(view: View, under: list[str], win_seat: int) -> str:
    """The highest card that still loses, unless it hands the winner a transformer it wants."""
    choice = under[-1]
    # The transformer doubles what the winner holds: give it only to a seat in the red.
    wants_it = quick_score(view.collected[win_seat], view.exposed) >= 0
    if choice == TRANSFORMER and len(under) > 1 and wants_it:
        choice = under[-2]
    if choice == GOAT and len(under) > 1:
        choice = under[-2]
    return choice


def _normal_discard(view: View, cards: list[str]) -> str:
    win = view.winner()
    win_seat = win[0] if win else None
    counts = {s: sum(1 for c in view.hand if c[1] == s) for s in "SHDC"}
    pig_out = PIG in view.unseen
    best, best_value = cards[0], -(10**9)
    for c in cards:
        value = DANGER.get(c, 0) + RANK[c] - 2 * counts[c[1]]
        if c in ("AS", "KS") and not pig_out and PIG not in view.hand:
            value -= 30  # the pig is gone: high spades are harmless
        if c == GOAT:
            value -= 200
        elif c == TRANSFORMER:
            behind = (
                quick_score(view.collected[win_seat], view.exposed) if win_seat is not None else 0
            )
            trick_gain = view.gain(win_seat, view.trick_cards) if win_seat is not None else 0
            value += 80 if behind + trick_gain < 0 else -120
        elif c[1] == "H" and view.threat is not None and view.threat == win_seat:
            value -= 80  # do not feed a run at all hearts
        if value > best_value:
            best, best_value = c, value
    return best


class NormalBot:
    """Sound club-player heuristics; deterministic, so the Hint is reproducible."""

    def __init__(self, **options):
        pass

    def act(
        self, observation: GongZhuObservation, legal_actions: list[dict], rng: random.Random
    ) -> dict:
        return hint(observation, legal_actions)


def hint(observation: GongZhuObservation, legal_actions: list[dict]) -> dict:
    """The Hint a player gets: Normal's choice. In the exposure phase the action names the
    cards to expose (possibly none); in play, the card to play."""
    if not legal_actions:
        raise ValueError("no legal action to hint")
    if legal_actions[0]["type"] == "expose":
        return pick_exposure(legal_actions, normal_exposure(observation["hand"]))
    cards = [a["card"] for a in legal_actions]
    return _pick(legal_actions, normal_card(observation, cards))


def _hard(**options):
    from games.bots.gongzhu_hard import HardBot

    return HardBot(**options)


BOTS = {"easy": EasyBot, "normal": NormalBot, "hard": _hard}
