"""Gong Zhu's Hard opponent: determinized sampling and playouts.

For each decision Hard deals the unseen cards to the other seats many times, each deal
consistent with what its seat has seen (the cards played, the voids shown, the exposed cards
still held, the hand sizes, and 2S with the seat that led a hand its holder opens), plays
every candidate card out to the end of the hand in each deal with a quick club-player policy
for all four seats, and keeps the card with the best mean of (own hand score − the others'
mean). The budget is a count of deals, not a clock, so
the same ``rng`` gives the same move on any machine. Exposure is Normal's choice; with
``exposures="search"`` each choice of cards to expose is played out over deals of the unseen
cards instead (``exposure_values``); none with ``exposures=False`` (benchmark variants:
``botmatch --hero hard:exposures=search``, ``hard:exposures=false``); with
``exposure_playouts=aware`` that search's playouts play with the exposures in mind
(``Exposed``: the exposed pig hunted, point cards weighed doubled).
``plays`` (off by default; a benchmark variant) is a second count, of cards played out per
decision: with it Hard samples more deals where each costs little (few candidates, few cards
left), never fewer than ``samples`` and at most ``MAX_SAMPLES_FACTOR`` times as many.
Two more benchmark variants, off by default, from issue 47 (a shallow, sharp evaluation in
place of deep playouts by a weak policy), screened against plain Hard and not adopted:
``horizon=N`` stops the playouts after the current trick and N more and scores them by the
burden (games/bots/gongzhu_burden.py): horizon=1 lost -78.5 [-128.4, -28.6] per hand over
70 deals (``botmatch gongzhu --hero hard:horizon=1 --villain hard --layout pairs``);
``answers=greedy`` has the other seats answer the card in its trick by the greedy
sampler's rule as first rebuilt (``Trick.answer``, scored by the burden): +2.5 [-49.7, +54.7] over 42 deals, at a CPU p95 of 858 ms a
decision, over the 300 ms budget.
"""

from __future__ import annotations

import random
from itertools import combinations

from games.bots.gongzhu import RANK, View, expose_nothing, hint, normal_exposure, pick_exposure
from games.bots.gongzhu_burden import burden
from games.bots.gongzhu_burden import legal as _legal
from games.engine.cards import STANDARD_DECK
from games.engine.gongzhu import GongZhuObservation, trick_winner
from games.engine.gongzhu.scoring import HEART_VALUES, PIG, POINT_CARDS, quick_score

SEATS = 4
POINTS = {**HEART_VALUES, PIG: -100, "JD": 100}
DISCARD_ORDER = ("QS", "AH", "KH", "QH", "AS", "KS", "JH", "TH")
DEFAULT_SAMPLES = 80
# Playouts per exposure decision, shared among the choices (every subset of the exposable
# cards held): 512 deals of the unseen cards for one card to expose or not, 64 for all four.
EXPOSURE_PLAYOUTS = 1024
MAX_SAMPLES_FACTOR = 8
LOWEST_SPADE = "2S"


def first_leader(observation: GongZhuObservation) -> int:
    """The seat that led the hand's first trick."""
    tricks = observation["tricks"]
    return tricks[0]["leader"] if tricks else observation["trick"]["leader"]


def fixed_cards(observation: GongZhuObservation, view: View) -> list[list[str]]:
    """Per seat, the unseen cards whose holder the observation tells: the exposed cards not yet
    played, and 2S with the first leader when the holder of 2S led the hand (no ``dealer``)."""
    me = view.seat
    unplayed = observation["exposed_unplayed"] or [[]] * SEATS
    known = [list(unplayed[s]) if s != me else [] for s in range(SEATS)]
    leader = first_leader(observation)
    if observation["dealer"] is None and LOWEST_SPADE in view.unseen and leader != me:
        known[leader].append(LOWEST_SPADE)
    return known


def sample_hands(view: View, known: list[list[str]], rng: random.Random) -> list[list[str]] | None:
    """The other seats' hands, dealt from the unseen cards consistently with the voids shown."""
    me = view.seat
    hands = [list(k) for k in known]
    hands[me] = list(view.hand)
    need = [view.hand_sizes[s] - len(known[s]) for s in range(SEATS)]
    need[me] = 0
    placed = {c for k in known for c in k}
    pool = [c for c in view.unseen if c not in placed]
    eligible = {c: [s for s in range(SEATS) if s != me and c[1] not in view.voids[s]] for c in pool}
    for _ in range(20):
        rng.shuffle(pool)
        pool.sort(key=lambda c: len(eligible[c]))  # the most constrained cards first
        left = list(need)
        deal = [list(h) for h in hands]
        for c in pool:
            seats = [s for s in eligible[c] if left[s] > 0]
            if not seats:
                break
            total = sum(left[s] for s in seats)
            pick = rng.randrange(total)
            for s in seats:
                pick -= left[s]
                if pick < 0:
                    break
            deal[s].append(c)
            left[s] -= 1
        else:
            return deal
    return None


def _policy(hand: list[str], legal: list[str], trick: list[str], rng: random.Random) -> str:
    """A quick, sensible card: duck under the winner, shed danger when void, lead low, keep
    the goat and the transformer out of other seats' tricks."""
    if len(legal) == 1:
        return legal[0]
    if not trick:
        low = sorted(legal, key=RANK.__getitem__)[:3]
        safe = [c for c in low if c not in _SPECIAL] or low
        return safe[rng.randrange(len(safe))]
    suit = trick[0][1]
    if legal[0][1] != suit:
        for c in DISCARD_ORDER:
            if c in legal:
                return c
        plain = [c for c in legal if c not in _KEEP]
        return max(plain or legal, key=RANK.__getitem__)
    win = max(RANK[c] for c in trick if c[1] == suit)
    under = [c for c in legal if RANK[c] < win]
    if len(trick) == 3:
        over = [c for c in legal if RANK[c] > win]
        pts = sum(POINTS.get(c, 0) for c in trick)
        if over and pts >= 0:
            plain = [c for c in over if c != "QS"]
            if plain:
                return max(plain, key=RANK.__getitem__)
        if under:
            plain = [c for c in under if c not in _KEEP]
            return max(plain or under, key=RANK.__getitem__)
        plain = [c for c in over if c != "QS"]
        return max(plain, key=RANK.__getitem__) if plain else over[0]
    if under:
        plain = [c for c in under if c not in _KEEP]
        return max(plain or under, key=RANK.__getitem__)
    plain = [c for c in legal if c not in _SPECIAL]
    return min(plain or legal, key=RANK.__getitem__)


def _aware_policy(
    seat: int,
    hand: list[str],
    legal: list[str],
    trick: list[str],
    rng: random.Random,
    aware: Exposed,
    hands: list[list[str]],
) -> str:
    """``_policy`` with the exposures in mind (``Exposed``)."""
    hunter = aware.pig_seat is not None and aware.pig_seat != seat and PIG in hands[aware.pig_seat]
    if hunter and not trick and "AS" not in hand and "KS" not in hand:
        spades = sorted((c for c in legal if c[1] == "S"), key=RANK.__getitem__)
        if spades:
            return spades[0]  # draw the pig out: its holder must follow
    if hunter and trick and legal[0][1] != trick[0][1]:
        for c in ("AS", "KS"):
            if c in legal:
                return c  # a spade above the pig is its likeliest taker
    if trick and len(trick) == 3 and legal[0][1] == trick[0][1]:
        suit = trick[0][1]
        win = max(RANK[c] for c in trick if c[1] == suit)
        over = [c for c in legal if RANK[c] > win]
        under = [c for c in legal if RANK[c] < win]
        wants = sum(aware.points.get(c, 0) for c in trick) >= 0
        if over and under and wants != (sum(POINTS.get(c, 0) for c in trick) >= 0):
            # The doubling turns the trick's worth round: take it or duck it accordingly.
            if wants:
                plain = [c for c in over if c != PIG]
                if plain:
                    return max(plain, key=RANK.__getitem__)
            else:
                plain = [c for c in under if c not in _KEEP]
                return max(plain or under, key=RANK.__getitem__)
    return _policy(hand, legal, trick, rng)


_SPECIAL = ("QS", "JD", "TC")
_KEEP = ("JD", "TC")  # cards one would rather not hand to the winner of someone else's trick


class Exposed:
    """What the exposures change in a playout's play (``exposure_playouts="aware"``): point
    cards weighed with their doubling, and the exposed pig hunted: a seat that does not
    hold it, nor a spade above it, leads its low spades until the pig falls, and a seat
    with a spade above it sheds that spade first when it cannot follow."""

    def __init__(self, exposed_by: list[list[str]]):
        exposed = {c for e in exposed_by for c in e}
        self.points = dict(POINTS)
        if "AH" in exposed:
            for c in HEART_VALUES:
                self.points[c] *= 2
        for c in (PIG, "JD"):
            if c in exposed:
                self.points[c] *= 2
        self.pig_seat = next((s for s, e in enumerate(exposed_by) if PIG in e), None)


def playout(
    hands: list[list[str]],
    trick: list[str],
    leader: int,
    taken: list[list[str]],
    restricted: list[set[str]],
    led: set[str],
    exposed: frozenset,
    rng: random.Random,
    aware: Exposed | None = None,
    horizon: int | None = None,
) -> list[float]:
    """Play the hand to its end from this position (mutates its arguments); final scores.
    With ``aware`` the seats play with the exposures in mind (``Exposed``). With a
    ``horizon`` the playout stops once the current trick and ``horizon`` more are played
    (or the hand ends) and scores each seat by what it has taken less the ``burden`` of the
    hand it still holds (games/bots/gongzhu_burden.py)."""
    tricks_left = None if horizon is None else horizon + 1
    while True:
        if len(trick) == SEATS:
            suit = trick[0][1]
            winner = trick_winner(leader, trick)
            taken[winner].extend(c for c in trick if c in POINT_CARDS)
            if suit not in led:
                led.add(suit)
                for r in restricted:
                    if r:
                        r.difference_update([c for c in r if c[1] == suit])
            leader = winner
            trick = []
            if tricks_left is not None:
                tricks_left -= 1
                if tricks_left == 0 and hands[leader]:
                    return _truncated_scores(hands, taken, exposed)
        seat = (leader + len(trick)) % SEATS
        hand = hands[seat]
        if not hand:
            break
        legal = _legal(hand, trick, restricted[seat], led)
        if aware is None or len(legal) == 1:
            card = _policy(hand, legal, trick, rng)
        else:
            card = _aware_policy(seat, hand, legal, trick, rng, aware, hands)
        hand.remove(card)
        restricted[seat].discard(card)
        trick.append(card)
    return [quick_score(t, exposed) for t in taken]


class Trick:
    """The rest of the current trick in one sampled deal, answered greedily and scored by the
    ``burden``: Hard's playouts' first trick with ``answers="greedy"`` (the benchmark's
    ``greedy`` opponent as first rebuilt; it now scores by ``gongzhu_burden.Greedy``)."""

    def __init__(self, view: View, hands: list[list[str]], restricted: list[set[str]]):
        self.hands = hands
        self.restricted = restricted
        self.led = set(view.led)
        self.exposed = frozenset(view.exposed)
        self.taken = [[c for c in t if c in POINT_CARDS] for t in view.collected]
        self.gone = set(view.played)

    def value(self, seat: int, leader: int, cards: list[str], held: list[str]) -> float:
        """The finished trick's worth to ``seat``, holding ``held`` after it."""
        worth = 0.0
        taken = self.taken[seat]
        if trick_winner(leader, cards) == seat:
            points = [c for c in cards if c in POINT_CARDS]
            if points:
                before = quick_score(taken, self.exposed)
                taken = [*taken, *points]
                worth = quick_score(taken, self.exposed) - before
        return worth - burden(held, self.gone.union(cards), taken, self.exposed)

    def answer(self, leader: int, cards: list[str]) -> list[str]:
        """The trick finished by the seats still to play, each choosing the card of the best
        ``value`` for itself given the later seats' answers by the same rule."""
        if len(cards) == SEATS:
            return cards
        seat = (leader + len(cards)) % SEATS
        hand = self.hands[seat]
        legal = _legal(hand, cards, self.restricted[seat], self.led)
        best, best_value = None, None
        for card in sorted(legal, key=RANK.__getitem__):
            done = self.answer(leader, [*cards, card])
            held = [c for c in hand if c != card]
            value = self.value(seat, leader, done, held)
            if best_value is None or value > best_value:
                best, best_value = done, value
        return best


def _truncated_scores(hands, taken, exposed) -> list[float]:
    """Each seat's points taken less the burden of what it holds (a truncated playout)."""
    held = {c for h in hands for c in h}
    gone = {c for c in STANDARD_DECK if c not in held}
    return [
        quick_score(t, exposed) - burden(h, gone, t, exposed)
        for h, t in zip(hands, taken, strict=True)
    ]


def candidates(view: View, cards: list[str]) -> list[str]:
    """The legal cards, one per run of cards that are interchangeable for every seat."""
    if len(cards) <= 1:
        return cards
    known = set(view.hand) | view.played
    out = []
    by_suit: dict[str, list[str]] = {}
    for c in sorted(cards, key=lambda c: (c[1], RANK[c])):
        by_suit.setdefault(c[1], []).append(c)
    for suit, run in by_suit.items():
        prev = None
        for c in run:
            if c in POINT_CARDS or suit == "H" or prev is None or prev in POINT_CARDS:
                out.append(c)
                prev = c
                continue
            between = [d for d in _RANKS_BETWEEN[(prev, c)] if d not in known]
            if between:
                out.append(c)
            prev = c
    return out


_ORDER = "23456789TJQKA"
_RANKS_BETWEEN = {
    (a + s, b + s): [r + s for r in _ORDER[_ORDER.index(a) + 1 : _ORDER.index(b)]]
    for s in "SHDC"
    for a in _ORDER
    for b in _ORDER
    if _ORDER.index(a) < _ORDER.index(b)
}


class HardBot:
    """Flat Monte Carlo over determinized deals; ``samples`` deals per decision."""

    def __init__(
        self,
        samples: int = DEFAULT_SAMPLES,
        budget: int | None = None,
        exposures: bool | str = True,
        exposure_margin: float = 0.0,
        plays: int = 0,
        exposure_playouts: str = "plain",
        horizon: int | None = None,
        answers: str = "policy",
        **options,
    ):
        # ``budget`` is the bench harness's generic name for the same count.
        self.samples = max(1, int(budget if budget is not None else samples))
        # True: Normal's rule; "search": weighed by playouts (exposure_values); False: none.
        self.exposures = exposures if exposures == "search" else bool(exposures)
        # With "search": what each exposed card must gain, in points, over exposing nothing.
        self.exposure_margin = float(exposure_margin)
        self.plays = max(0, int(plays))
        # How the exposure search's playouts play: "plain" (the playouts' policy, as for the
        # cards) or "aware" (with the exposures in mind: ``Exposed``).
        if exposure_playouts not in ("plain", "aware"):
            raise ValueError(f"exposure_playouts: plain or aware, not {exposure_playouts!r}")
        self.aware = exposure_playouts == "aware"
        # Tricks the card playouts play past the current one before the burden scores them
        # (None: to the end of the hand).
        self.horizon = None if horizon is None or horizon == "none" else max(0, int(horizon))
        # How the other seats answer this decision's card in its trick: "policy" (the
        # playouts' policy) or "greedy" (``Trick.answer``, the greedy sampler's rule).
        if answers not in ("policy", "greedy"):
            raise ValueError(f"answers: policy or greedy, not {answers!r}")
        self.greedy_answers = answers == "greedy"

    def deals(self, observation: GongZhuObservation, cards: list[str]) -> int:
        """How many deals to sample: ``samples``, or with a ``plays`` budget as many as it
        pays for (each deal costs a playout per candidate card, of the cards still held)."""
        if not self.plays:
            return self.samples
        cost = len(cards) * max(1, sum(observation["hand_sizes"]))
        return max(self.samples, min(self.plays // cost, MAX_SAMPLES_FACTOR * self.samples))

    def act(
        self, observation: GongZhuObservation, legal_actions: list[dict], rng: random.Random
    ) -> dict:
        if legal_actions[0]["type"] == "expose":
            # One draw whatever the choice is made by, so that the play after it draws the
            # same numbers under each exposure option (a benchmark compares them deal by deal).
            seed = rng.getrandbits(64)
            if not self.exposures:
                return expose_nothing(legal_actions)
            if self.exposures == "search" and observation["exposable"]:
                deals = EXPOSURE_PLAYOUTS >> len(observation["exposable"])
                values = exposure_values(observation, random.Random(seed), deals, self.aware)
                margin = self.exposure_margin
                best = max(values, key=lambda c: values[c] - margin * len(c))
                return pick_exposure(legal_actions, list(best))
        options = self.shortlist(observation, legal_actions)
        if options is None:
            return hint(observation, legal_actions)
        if len(options) == 1:
            return options[0]
        cards = [a["card"] for a in options]
        _own, ahead = _totals(
            observation,
            cards,
            rng,
            self.deals(observation, cards),
            self.horizon,
            self.greedy_answers,
        )
        choice = max(cards, key=lambda c: (ahead[c], -RANK[c]))
        return next(a for a in legal_actions if a["card"] == choice)

    def shortlist(
        self, observation: GongZhuObservation, legal_actions: list[dict]
    ) -> list[dict] | None:
        """The cards Hard weighs here (one of each interchangeable run), or None where it
        does not search: an exposure (Normal's choice) or a single legal action."""
        if legal_actions[0]["type"] == "expose" or len(legal_actions) == 1:
            return None
        by_card = {a["card"]: a for a in legal_actions}
        return [by_card[c] for c in candidates(View(observation), list(by_card))]

    def evaluate(
        self,
        observation: GongZhuObservation,
        actions: list[dict],
        rng: random.Random,
        samples: int | None = None,
    ) -> list[float]:
        """Each card's expected score for this seat's hand, over the same sampled deals."""
        cards = [a["card"] for a in actions]
        own, _ahead = _totals(
            observation, cards, rng, samples or self.samples, self.horizon, self.greedy_answers
        )
        return [own[c] for c in cards]


def exposure_values(
    observation: GongZhuObservation, rng: random.Random, deals: int, aware: bool = False
) -> dict[tuple, float]:
    """Each choice of cards to expose (every subset of this seat's exposable cards, none
    first) with its mean score over ``deals`` deals of the unseen cards, each played out with
    the playouts' policy: this seat's own hand score less the other seats' mean, the
    exposed cards' effects doubled, the other seats exposing by Normal's rule on their
    sampled hands. The same deals and playouts for every choice. With ``aware`` the
    playouts' seats play with the exposures in mind (``Exposed``)."""
    me = observation["seat"]
    hand = list(observation["hand"])
    mine = list(observation["exposable"])
    choices = [c for n in range(len(mine) + 1) for c in combinations(mine, n)]
    held = set(hand)
    unseen = [c for c in STANDARD_DECK if c not in held]
    others = [s for s in range(SEATS) if s != me]
    values = dict.fromkeys(choices, 0.0)
    for _ in range(deals):
        rng.shuffle(unseen)
        hands = [hand] * SEATS
        for i, s in enumerate(others):
            hands[s] = unseen[i * len(hand) : (i + 1) * len(hand)]
        leader = observation["leader"]
        if leader is None:  # the holder of 2S opens the hand
            leader = next(s for s in range(SEATS) if LOWEST_SPADE in hands[s])
        exposed_by = [normal_exposure(h) if s != me else [] for s, h in enumerate(hands)]
        playout_seed = rng.getrandbits(64)
        for choice in choices:
            exposed_by[me] = list(choice)
            scores = playout(
                [list(h) for h in hands],
                [],
                leader,
                [[] for _ in range(SEATS)],
                [set(e) for e in exposed_by],
                set(),
                frozenset(c for e in exposed_by for c in e),
                random.Random(playout_seed),
                Exposed(exposed_by) if aware else None,
            )
            values[choice] += scores[me] - (sum(scores) - scores[me]) / 3
    return {c: v / deals for c, v in values.items()}


def _restricted(hands: list[list[str]], unplayed, led: set[str]) -> list[set[str]]:
    """Per seat, its exposed cards still held in suits not yet led (it may not play them
    while it holds another card of the suit the first time that suit is led)."""
    return [{x for x in unplayed[s] if x in hands[s] and x[1] not in led} for s in range(SEATS)]


def _totals(
    observation: GongZhuObservation,
    cards: list[str],
    rng: random.Random,
    samples: int,
    horizon: int | None = None,
    greedy_answers: bool = False,
) -> tuple[dict[str, float], dict[str, float]]:
    """Per card, over ``samples`` deals of the unseen cards, the mean of this seat's own hand
    score and of that score less the other seats' mean."""
    view = View(observation)
    me = view.seat
    unplayed = observation["exposed_unplayed"] or [[]] * SEATS
    known = fixed_cards(observation, view)
    exposed = frozenset(view.exposed)
    trick = list(view.trick_cards)
    leader = observation["trick"]["leader"]
    led = set(view.led)
    taken0 = [list(c) for c in view.collected]
    own = dict.fromkeys(cards, 0.0)
    ahead = dict.fromkeys(cards, 0.0)
    dealt = 0
    for _ in range(samples):
        deal = sample_hands(view, known, rng)
        if deal is None:
            continue
        dealt += 1
        playout_seed = rng.getrandbits(64)
        greedy = None
        if greedy_answers:
            greedy = Trick(view, deal, _restricted(deal, unplayed, led))
        for c in cards:
            hands = [list(h) for h in deal]
            hands[me].remove(c)
            played = [*trick, c]
            if greedy is not None:
                played = greedy.answer(leader, played)
                for i in range(len(trick) + 1, SEATS):
                    hands[(leader + i) % SEATS].remove(played[i])
            scores = playout(
                hands,
                played,
                leader,
                [list(t) for t in taken0],
                _restricted(hands, unplayed, led),
                set(led),
                exposed,
                random.Random(playout_seed),
                horizon=horizon,
            )
            own[c] += scores[me]
            ahead[c] += scores[me] - (sum(scores) - scores[me]) / 3
    n = max(1, dealt)
    return {c: v / n for c, v in own.items()}, {c: v / n for c, v in ahead.items()}
