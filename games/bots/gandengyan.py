"""Computer opponents for Gan Deng Yan (the rule text's "Strategy" advice).

Each bot sees the observation, the legal actions and a ``random.Random``; never the state.

- Easy thinks little: it sheds its lowest cards and beats the table when it cheaply can.
- Normal plays like a sound player: it leads long straights and pair runs, keeps a ``2`` or a
  bomb for control, does not sit on jokers, thinks twice before a bomb with a big hand and
  watches the opponents' card counts. ``hint`` is Normal's choice.
- Hard samples the unseen cards (the opponents' hands and the stock) consistent with what
  its seat has seen, and with what Normal would have played in the opponents' places, and
  plays each candidate out as Normal would (``games/bots/gandengyan_search.py``).
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.base import Combo
from games.engine.gandengyan import GanDengYanObservation
from games.engine.gandengyan.combos import ACE, BOMB, INDEX, JOKER_BOMB, TWO, counts_of

Action = dict[str, Any]

CONTROL = (BOMB, JOKER_BOMB)


# --- reading a hand -------------------------------------------------------------------


def plan_cost(counts: list[int], jokers: int) -> float:
    """Roughly how many leads the hand needs to go out, less what its control cards (2s,
    bombs) are worth: runs are taken greedily, longest first; bombs are kept whole."""
    c = list(counts)
    moves = 0.0
    while True:
        best_cards, best = 0, None
        for width, need in ((1, 3), (2, 2)):  # straights of 3+, pair runs of 2+
            start = None
            for r in range(ACE + 2):
                ok = r <= ACE and width <= c[r] <= 2
                if ok and start is None:
                    start = r
                elif not ok and start is not None:
                    length = r - start
                    if length >= need and length * width > best_cards:
                        best_cards, best = length * width, (start, length, width)
                    start = None
        if best is None:
            break
        start, length, width = best
        for r in range(start, start + length):
            c[r] -= width
        moves += 1
    for r in range(13):
        if c[r]:
            moves += 1
            if r == TWO or c[r] >= 3:
                moves -= 0.6  # a 2 or a bomb wins its trick: almost a free lead
    if jokers == 2:
        moves -= 0.6  # the joker bomb
    elif jokers and moves >= 1:
        moves -= 0.3  # a joker mends a gap or pairs a single
    return moves


def parse(action: Action) -> tuple[Combo, list[int], int]:
    """An action's combo, the rank counts of its real cards and its jokers."""
    counts, jokers = counts_of(action["cards"])
    return Combo.from_dict(action["combo"]), counts, jokers


def opponents(obs: GanDengYanObservation) -> list[int]:
    me, n = obs["seat"], obs["seats"]
    return [(me + k) % n for k in range(1, n)]


def danger(obs: GanDengYanObservation) -> int:
    """The fewest cards an opponent holds."""
    return min(obs["counts"][s] for s in opponents(obs))


def rank_of_combo(combo: Combo) -> int:
    return INDEX.get(combo.low, 13) if combo.low else 14


# --- Easy -----------------------------------------------------------------------------


class EasyBot:
    """Sheds its lowest cards and beats the table when it cheaply can; little thought."""

    def act(
        self, observation: GanDengYanObservation, legal_actions: list[Action], rng: random.Random
    ) -> Action:
        plays = [a for a in legal_actions if a["type"] == "play"]
        if not plays:
            return legal_actions[0]
        if observation["table"] is None:
            if rng.random() < 0.2:
                return rng.choice(plays)
            simple = [a for a in plays if a["combo"]["kind"] in ("single", "pair")] or plays
            return min(simple, key=lambda a: (rank_of_combo(parse(a)[0]), -len(a["cards"])))
        cheap = [a for a in plays if a["combo"]["kind"] not in CONTROL]
        if cheap and rng.random() < 0.85:
            return min(cheap, key=lambda a: (parse(a)[2], rank_of_combo(parse(a)[0])))
        bombs = [a for a in plays if a["combo"]["kind"] in CONTROL]
        if bombs and rng.random() < 0.2:
            return min(bombs, key=lambda a: len(a["cards"]))
        return {"type": "pass"}


# --- Normal ---------------------------------------------------------------------------


def score_play(obs: GanDengYanObservation, counts: list[int], jokers: int, action: Action) -> float:
    """Normal's value of making this play now (higher is better). When following, the
    caller weighs it against keeping the hand as it is (``worth_following``)."""
    combo, used, used_jokers = parse(action)
    left = [a - b for a, b in zip(counts, used, strict=True)]
    return play_value(
        left,
        jokers - used_jokers,
        len(action["cards"]),
        combo,
        bool(used[TWO]),
        used_jokers,
        danger(obs),
        obs["stock"],
        obs["table"] is None,
    )


def play_value(
    left: list[int],
    left_jokers: int,
    n_cards: int,
    combo: Combo,
    uses_two: bool,
    used_jokers: int,
    threat: int,
    stock: int,
    leading: bool,
    cost=plan_cost,
) -> float:
    """``score_play`` from rank counts: the hand ``left`` after a play of ``n_cards`` cards
    (``uses_two``: a 2 among them), the fewest cards an opponent holds, the stock's size,
    whether the seat leads; ``cost`` is ``plan_cost`` or a remembered copy of it (Hard's
    playouts, ``games.bots.gandengyan_search``)."""
    n_left = sum(left) + left_jokers
    if n_left == 0:
        return 1000.0
    big_hand = n_left > 7
    value = -cost(left, left_jokers) * 10 + n_cards * 1.5
    low = rank_of_combo(combo)
    if combo.kind in CONTROL:
        # Every bomb doubles the stake for the whole table, the bomber's own loss included.
        value -= 18 if big_hand else 6
        if threat <= 2:
            value += 14
        if n_left <= 3:
            value += 10
    elif combo.low == "2" or uses_two:
        value -= 7 if threat > 2 and n_left > 3 else 0  # a 2 held back is a trick won later
    else:
        value -= low * 0.25  # shed low cards first; high ones are harder to follow
    if used_jokers:
        # Don't sit on a joker (each one doubles the loss), but don't waste one either.
        value += 2.5 if stock < 6 or n_left <= 5 else 0.5
    if combo.kind in ("single", "pair") and leading and threat <= combo.count:
        # An opponent about to go out on exactly this shape: lead it only high.
        value -= 8 - low * 0.5
    return value


def worth_following(best: float, counts: list[int], jokers: int, threat: int, cost=plan_cost):
    """Following: Normal plays its best play only if it does not cost more than it gains
    (against keeping the hand, ``-plan_cost × 10``), or when an opponent is about to go out."""
    return best >= -cost(counts, jokers) * 10 or threat <= 1


class NormalBot:
    """Sound heuristics over the legal plays: one ply, no look-ahead."""

    def choose(self, observation: GanDengYanObservation, legal_actions: list[Action]) -> Action:
        counts, jokers = counts_of(observation["hand"])
        plays = [a for a in legal_actions if a["type"] == "play"]
        if not plays:
            return legal_actions[0]
        scored = [(score_play(observation, counts, jokers, a), i) for i, a in enumerate(plays)]
        best, i = max(scored)
        if observation["table"] is None:
            return plays[i]
        if worth_following(best, counts, jokers, danger(observation)):
            return plays[i]
        return {"type": "pass"}

    def act(
        self, observation: GanDengYanObservation, legal_actions: list[Action], rng: random.Random
    ) -> Action:
        return self.choose(observation, legal_actions)


def hint(observation: GanDengYanObservation, legal_actions: list[Action]) -> Action:
    """The site's Hint: what Normal would play here."""
    return NormalBot().choose(observation, legal_actions)


# --- Hard -----------------------------------------------------------------------------


# Hard's budget: sampled deals per decision, each playing out every candidate, by the number
# of seats (about the same work whatever the table's size: a playout at four seats costs
# about twice one at two); HARD_SAMPLES for any other table. Measured with botmatch against
# Normal (issue #15): a decision's CPU time p95 stays near 80 ms, its maximum under 0.5 s;
# 40-56 ms and 0.16 s since Normal's choices are remembered by numbers (``normal_choice``).
SAMPLES_BY_SEATS = {2: 48, 3: 32, 4: 24}
HARD_SAMPLES = 16


class HardBot:
    """Determinized look-ahead: for each of ``samples`` deals of the unseen cards, every
    candidate is played out to the end of the round; the best mean score wins. The budget
    is counted in samples and playouts, never in time, so a seed fixes the move:
    ``samples`` deals × at most ``candidates`` + 1 playouts per decision (``budget``, as
    ``botmatch --budget`` passes it, is another name for ``samples``; 0, the default, takes
    the number from ``SAMPLES_BY_SEATS``).

    Options:

    - ``rollout``: who plays the rounds out: ``normal`` (every seat as Normal plays, the
      default), ``greedy`` (a fast greedy for every seat, Hard before issue #15) or
      ``mixed`` (the opponents as Normal, Hard's seat greedily).
    - ``infer``: keep to deals in which Normal would have made the opponents' decisions of
      the last ``infer`` tricks (2 by default; 0: any deal), trying up to ``tries`` deals
      for each sample. Two tricks back is exact: the one card an opponent drew between them
      may be any card of its hand.

    Hard before issue #15 is ``hard:samples=16,rollout=greedy,infer=0``.
    """

    def __init__(
        self,
        samples: int = 0,
        candidates: int = 6,
        budget: int | None = None,
        rollout: str = "normal",
        infer: int = 2,
        tries: int = 8,
    ):
        from games.bots.gandengyan_search import POLICIES

        if rollout not in POLICIES:
            raise ValueError(f"rollout is one of {', '.join(POLICIES)}, not {rollout!r}")
        self.samples = budget if budget is not None else samples
        self.candidates = candidates
        self.rollout = rollout
        self.infer = infer
        self.tries = max(1, tries)

    def act(
        self, observation: GanDengYanObservation, legal_actions: list[Action], rng: random.Random
    ) -> Action:
        candidates = self.shortlist(observation, legal_actions)
        if candidates is None:
            return legal_actions[0]
        if len(candidates) == 1:
            return candidates[0]
        totals = self.evaluate(observation, candidates, rng)
        if totals is None:
            return candidates[0]  # an observation that does not add up: trust the heuristics
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def shortlist(
        self, observation: GanDengYanObservation, legal_actions: list[Action]
    ) -> list[Action] | None:
        """The plays Hard weighs (Normal's best few, and passing where allowed), or None
        where there is nothing to weigh: a single legal action."""
        if len(legal_actions) == 1:
            return None
        counts, jokers = counts_of(observation["hand"])
        plays = [a for a in legal_actions if a["type"] == "play"]
        for a in plays:
            if len(a["cards"]) == len(observation["hand"]):
                return [a]  # going out
        ranked = sorted(plays, key=lambda a: -score_play(observation, counts, jokers, a))
        candidates = ranked[: self.candidates]
        if observation["table"] is not None:
            candidates.append({"type": "pass"})
        return candidates

    def evaluate(
        self,
        observation: GanDengYanObservation,
        actions: list[Action],
        rng: random.Random,
        samples: int | None = None,
    ) -> list[float] | None:
        """Each action's expected points for this seat at the round's end, over the same
        sampled deals of the unseen cards (None: an observation that does not add up)."""
        from games.bots.gandengyan_search import values

        return values(
            observation,
            actions,
            rng,
            samples or self.samples or SAMPLES_BY_SEATS.get(observation["seats"], HARD_SAMPLES),
            self.rollout,
            self.infer,
            self.tries,
        )


BOTS = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
