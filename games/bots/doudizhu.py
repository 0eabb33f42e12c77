"""Dou Dizhu computer opponents (ENGINE_CONTRACT.md, "Computer opponents"; RULINGS.md, Dou
Dizhu: bidding and play).

Every bot sees only its seat's observation, the legal actions and a ``random.Random``.

- Easy leads whatever holds its lowest card and follows with the cheapest beat.
- Normal plans its hand into as few plays as it can (``doudizhu_plan``), leads the weakest
  part of the plan, keeps its 2s, jokers and bombs for control, does not overtake its
  partner, feeds a partner who is nearly out, and bombs only to win or to stop a near win.
  Its choice is the site's Hint (``hint``).
- Hard samples the unseen cards into the other hands (consistent with the card counts and
  the kitty shown), plays each of Normal's best few candidates out on every sample with
  Normal's policy, and takes the best on average. It deals ``pool`` × samples deals and
  keeps those that best explain the other seats' bids and latest plays under Normal's
  policy (``surprise``), and weighs each bid by playouts on ``bid_samples`` deals of the
  unseen cards (``bid_values``). Once few cards are left in a sampled deal, its playout
  ends by an exact search of that endgame (``doudizhu_endgame``). It reads how each other
  seat plays from that seat's plays this hand (``read_styles``): a seat that plays as a
  greedy follower (the lowest beat of the kind whenever it can) is played so in the
  playouts and asked so by the inference, instead of as Normal. Its budget is counted in
  deals and positions, never a clock, so the same rng gives the same move anywhere.
"""

from __future__ import annotations

import random
from functools import cached_property

from games.bots.doudizhu_endgame import Endgame
from games.bots.doudizhu_plan import CONTROL, is_control, plan
from games.engine.doudizhu import DouDizhuObservation
from games.engine.doudizhu.bidding import after_bid, allowed_bids
from games.engine.doudizhu.combos import (
    BJ,
    NRANKS,
    RANK_INDEX,
    RJ,
    TWO,
    counts_of,
    follows,
    leads,
    move_key,
    rank_index,
    read_counts,
)

# ---------------------------------------------------------------- reading the observation


class SeatView:
    """What a seat knows, in rank counts: shared by the real table and Hard's playouts."""

    seat: int
    hand: list
    landlord: int | None
    counts: list
    table_seat: int | None
    table_key: tuple | None
    moves: dict
    can_pass: bool
    unseen: list

    @property
    def partner(self):
        if self.landlord is None or self.seat == self.landlord:
            return None
        return 3 - self.seat - self.landlord

    def is_opponent(self, seat) -> bool:
        if seat == self.seat:
            return False
        return self.landlord in (self.seat, seat)

    def opponents(self):
        return [s for s in range(3) if self.is_opponent(s)]

    def min_opponent_cards(self) -> int:
        return min(self.counts[s] for s in self.opponents())


class SimView(SeatView):
    """A seat inside a playout, where every hand is known (one sampled world)."""

    def __init__(self, hands, seat, landlord, table):
        self.seat = seat
        self.hand = hands[seat]
        self.landlord = landlord
        self.counts = [sum(h) for h in hands]
        if table is None:
            self.table_seat = self.table_key = None
            moves = leads(self.hand)
        else:
            self.table_seat, self.table_key = table
            moves = follows(self.hand, self.table_key)
        self.moves = dict.fromkeys(moves)
        self.can_pass = table is not None
        self._hands = hands

    @cached_property
    def unseen(self) -> list[int]:
        # Worked out only when a policy asks (most playout steps never do): a fifth of a
        # playout's time went here.
        hands = self._hands
        return [a + b + c - own for a, b, c, own in zip(*hands, hands[self.seat], strict=True)]


class View(SeatView):
    """What a bot reads off its observation, in rank counts."""

    def __init__(self, obs: DouDizhuObservation, legal: list[dict]):
        self.obs = obs
        self.seat = obs["seat"]
        self.hand = counts_of(obs["hand"])
        self.landlord = obs["landlord"]
        self.counts = obs["card_counts"]
        table = obs["table"]
        self.table_seat = None if table is None else table["seat"]
        self.table_key = None
        if table is not None:
            self.table_key = action_move({"type": "play", **table})
            self.table_key = move_key(self.table_key)
        self.moves: dict[tuple, dict] = {}
        self.can_pass = False
        for action in legal:
            if action["type"] == "pass":
                self.can_pass = True
            elif action["type"] == "play":
                self.moves.setdefault(action_move(action), action)
        self.unseen = [obs["unseen"][name] for name in _NAMES]


_NAMES = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "BJ", "RJ")


def action_move(action: dict) -> tuple:
    """The internal move ``(kind, low, length, ranks)`` of a play action."""
    combo = action["combo"]
    ranks = tuple(sorted(rank_index(c) for c in action["cards"]))
    if combo["kind"] == "rocket":
        return ("rocket", RJ, 1, ranks)
    low, high = RANK_INDEX[combo["low"]], RANK_INDEX[combo["high"]]
    return (combo["kind"], low, high - low + 1, ranks)


def _minus(counts, ranks):
    rest = list(counts)
    for r in ranks:
        rest[r] -= 1
    return rest


def hand_strength(counts) -> float:
    """A bidding score: high cards and bombs, less for a hand that splits into many plays."""
    score = 0.0
    if counts[BJ] and counts[RJ]:
        score += 8
    else:
        score += 3 * counts[BJ] + 4 * counts[RJ]
    score += 2 * counts[TWO] + 0.7 * counts[TWO - 1]
    score += sum(6 for r in range(TWO) if counts[r] == 4)
    cost = plan(tuple(counts))[0][0]
    score += (9 - cost) * 0.8
    return score


def _bid_for(score: float, thresholds, legal_values) -> int:
    want = 0
    for value, threshold in zip((1, 2, 3), thresholds, strict=True):
        if score >= threshold:
            want = value
    return want if want in legal_values else 0


def _bid_action(value):
    return {"type": "bid", "value": value}


# ---------------------------------------------------------------- Easy


class EasyBot:
    """Little thought: the lowest card first, the cheapest beat, bombs only in a pinch."""

    def act(
        self, observation: DouDizhuObservation, legal_actions: list[dict], rng: random.Random
    ) -> dict:
        if legal_actions[0]["type"] == "bid":
            values = [a["value"] for a in legal_actions]
            score = hand_strength(counts_of(observation["hand"])) + rng.uniform(-2, 2)
            return _bid_action(_bid_for(score, (8, 11, 14), values))
        view = View(observation, legal_actions)
        move = easy_move(view.hand, view.table_key, view.moves, view, rng)
        return view.moves[move] if move is not None else {"type": "pass"}


def easy_move(hand, table_key, moves, view, rng):
    if table_key is None:
        low = min(r for r in range(NRANKS) if hand[r])
        with_low = [m for m in moves if low in m[3] and m[0] not in ("bomb", "rocket")]
        if not with_low:
            with_low = list(moves)
        # the play holding the lowest card that shifts the most cards
        return max(with_low, key=lambda m: (len(m[3]) if m[1] == low else 0, -m[1]))
    if view.table_seat == view.partner:
        return None
    plain = [m for m in moves if m[0] not in ("bomb", "rocket")]
    if plain:
        return min(plain, key=lambda m: (m[1], sum(m[3])))
    if moves and view.counts[view.table_seat] <= 2:
        return min(moves, key=lambda m: m[1])
    return None


# ---------------------------------------------------------------- Normal


class NormalBot:
    """A sound player: plays its plan, keeps control, co-operates as a peasant."""

    # Bids on hand_strength: measured against each other in bot matches, bolder bidding paid
    # (the landlord's extra cards and lead are worth much among these players).
    thresholds = (4.5, 6.5, 8.5)

    def __init__(self, bid_thresholds=None):
        if bid_thresholds is not None:
            self.thresholds = tuple(bid_thresholds)

    def act(
        self, observation: DouDizhuObservation, legal_actions: list[dict], rng: random.Random
    ) -> dict:
        if legal_actions[0]["type"] == "bid":
            values = [a["value"] for a in legal_actions]
            score = hand_strength(counts_of(observation["hand"]))
            return _bid_action(_bid_for(score, self.thresholds, values))
        view = View(observation, legal_actions)
        ranked = rank_moves(view)
        return _to_action(view, ranked[0])

    def candidates(self, observation: DouDizhuObservation, legal_actions, limit):
        view = View(observation, legal_actions)
        return view, rank_moves(view)[:limit]


def _to_action(view, move):
    return {"type": "pass"} if move is None else view.moves[move]


def _unbeatable(view, move) -> bool:
    """No combination of the cards this seat has not seen beats ``move``."""
    return not follows(view.unseen, move_key(move))


def rank_moves(view: View) -> list:
    """Normal's preference order over the legal moves (None = pass), best first."""
    moves = list(view.moves)
    if view.table_key is None:
        return _rank_leads(view, moves)
    return _rank_follows(view, moves)


def best_move(view: SeatView):
    """``rank_moves(view)[0]`` without ordering the rest: the playouts' policy, where only
    the first counts (ordering the others was a third of a playout's time)."""
    if view.table_key is None:
        return _rank_leads(view, list(view.moves), best=True)[0]
    return _rank_follows(view, list(view.moves), best=True)[0]


def _rank_leads(view, moves, best=False):
    """Normal's order of leads; with ``best``, the first alone (in a list)."""
    hand = view.hand
    total = sum(hand)
    for m in moves:
        if len(m[3]) == total:
            return [m] if best else [m] + [x for x in moves if x != m]
    cost, units = plan(tuple(hand))
    units = [u for u in units if u in view.moves] or moves
    threat = view.min_opponent_cards()
    partner = view.partner

    # two plays left and one cannot be beaten: play that one, then the other
    if len(units) == 2:
        for u in units:
            if _unbeatable(view, u):
                return [u] if best else [u] + [x for x in moves if x != u]

    # a partner nearly out, who plays right after us: give it something to beat
    if partner is not None and view.counts[partner] <= 2 and partner == (view.seat + 1) % 3:
        want = "solo" if view.counts[partner] == 1 else "pair"
        small = sorted((m for m in moves if m[0] == want), key=lambda m: m[1])
        if small:
            return small[:1] if best else small + [x for x in moves if x not in small]

    def score(unit):
        kind, low, length, ranks = unit
        s = low - 0.6 * len(ranks)
        if is_control(unit):
            s += 30
        if kind in ("bomb", "rocket"):
            s += 60
        # an opponent nearly out: do not lead what it can follow with its last cards
        if threat == 1 and kind == "solo":
            s += 40 - low if not _unbeatable(view, unit) else -5
        if threat == 2 and kind == "pair":
            s += 20
        return s

    if best:
        return [min(units, key=score)]  # the first of the lowest, as sorted() puts it
    ordered = sorted(units, key=score)
    return ordered + [x for x in moves if x not in ordered]


def _rank_follows(view, moves, best=False):
    """Normal's order of follows (None: pass); with ``best``, the first alone (in a list)."""
    hand = view.hand
    total = sum(hand)
    for m in moves:
        if len(m[3]) == total:
            return [m] if best else [m] + [x for x in moves if x != m] + [None]
    owner = view.table_seat
    owner_cards = view.counts[owner]
    partner_holds = owner == view.partner
    if partner_holds:
        # never overtake the partner (unless it goes out above)
        return [None] if best else [None] + moves
    base = plan(tuple(hand))[0][0]
    plain, bombs = [], []
    for m in moves:
        (bombs if m[0] in ("bomb", "rocket") else plain).append(m)
    scored = []
    for m in plain:
        after = plan(tuple(_minus(hand, m[3])))[0][0]
        delta = after - (base - 1)
        uses_control = m[1] >= CONTROL or any(r >= CONTROL for r in m[3] if r != m[1])
        scored.append((delta, uses_control, m[1], sum(m[3]), m))
    scored.sort(key=lambda x: x[:4])
    threat = owner_cards <= 3 or (
        view.landlord != view.seat and owner == view.landlord and owner_cards <= 5
    )
    out = []
    for delta, uses_control, _low, _sum, m in scored:
        if (
            delta <= 0
            and (not uses_control or threat or base <= 3 or owner_cards <= 8)
            or threat
            or (delta <= 1 and not uses_control and owner_cards <= 10)
        ):
            out.append(m)
            if best:
                break  # whether there are more makes no difference to the first
    if best and out and owner_cards > 2:
        return out[:1]  # a bomb goes first only with nothing else or the owner nearly out
    # bombs: when the hand is then won, or to stop an opponent about to go out
    good_bombs = []
    for m in sorted(bombs, key=lambda m: (m[0] == "rocket", m[1])):
        after = plan(tuple(_minus(hand, m[3])))
        left = after[1]
        wins = len(left) <= 1 or all(_unbeatable(view, u) for u in left[:-1] if u != left[-1])
        if wins or (owner_cards <= 3 and not out):
            good_bombs.append(m)
            if best:
                break
    if good_bombs and (not out or owner_cards <= 2):
        return good_bombs[:1] if best else good_bombs + out + [None]
    if best:
        return out[:1] or [None]
    rest = [m for m in moves if m not in out and m not in good_bombs]
    return out + [None] + good_bombs + rest


def hint(observation: DouDizhuObservation, legal_actions: list[dict]) -> dict:
    """The site's Hint: Normal's choice (bids included)."""
    return NormalBot().act(observation, legal_actions, random.Random(0))


# ---------------------------------------------------------------- Hard


# Deals per decision. Measured against Normal (issue #15, `botmatch doudizhu --hero
# hard:samples=N,pool=1,bid_samples=0 --villain normal --hands 200 --seed 1`): 10 deals +1.4
# [+0.8, +2.0] points per deal, 20 deals +1.9 [+1.2, +2.6] with a decision's CPU time p95
# 147 ms and max 714 ms.
SAMPLES = 20
# Inference: the deals kept are the best explained of three times as many, by the bids and
# the other seats' latest four plays. Bids: weighed over 16 deals each. Over the same 200
# deals (seed 1): plain sampling +1.9, with inference +2.6 [+1.9, +3.2], with both +2.9
# [+2.2, +3.6] points per deal; seed 2: +2.3, +2.2 and +3.3 [+2.6, +3.9]. CPU time per
# decision with both (seed 2, the machine busy): median 55 ms, p95 234 ms, max 772 ms.
POOL, RECENT, BID_SAMPLES = 3, 4, 16
# Endgames solved exactly from 16 cards left in the three hands (2,000 positions a solve at
# most): against RLCard's rule agent (rlcardmatch --seed 1 --deals 400) 78.1 % -> 81.5 % of
# the games won, +3.4 [+0.5, +6.2] points on the same deals; against Normal +2.9 -> +3.0
# points per deal (seed 1, 200 deals; the same deals +0.1 [-0.6, +0.8]); CPU time per
# decision median 36 -> 51 ms, p95 165 -> 237 ms (the machine busy); with the solver's
# positions kept as bytes (a quiet machine, --jobs 2): median 39 ms, p95 135 ms, max 571 ms.
ENDGAME, ENDGAME_NODES = 16, 2000
# Cheap playouts beside Normal's on each sampled deal (``HardBot.rollouts``): seeing every
# hand (the perfect-information testbed, 200 deals against RLCard's rule agent) eight of them
# took 83.5 % -> 87.8 % (seed 1) and 84.8 % -> 87.0 % (seed 2); with the hands sampled, four
# took 81.5 % -> 83.0 %, +1.5 [-2.7, +5.7] on the same games, at twice the time, and eight with
# 12 samples 82.2 %: not kept as the level's default (notes of session 29).
ROLLOUTS = 0
# Reading the other seats' styles (``read_styles``): over 8 deals, their latest 12 plays each.
# Against RLCard's rule agent, a greedy follower (rlcardmatch --level hard --seed 1 --deals
# 400): 81.5 % -> 86.4 % [84.0, 88.8] of the games won (on the first 200 deals +6.0 [+2.2,
# +9.8] on the same games); over 4 deals 84.4 %. Seeing every hand with the styles known (a
# scratch run of the perfect player): 83.2 % -> 93.9 %. Against Normal +2.8 [+2.1, +3.5]
# points per deal (was +3.0); CPU per decision about 3 % more (p95 323 against 319 ms on
# the same 100 deals, this machine on 2026-12-07).
STYLE_DEALS, STYLE_PLAYS = 8, 12
# The learned value's weight beside Normal's playout on each sampled deal (``HardBot.value``,
# ``doudizhu_value``): a play's value on a deal is (1 - VALUE) x Normal's playout + VALUE x
# the points the model expects for the position after it.
VALUE = 0.0


class HardBot:
    """Samples the hidden hands and plays Normal's best candidates out on each sample."""

    def __init__(
        self,
        samples: int = SAMPLES,
        candidates: int = 4,
        budget: int | None = None,
        smart: bool = True,
        bid_thresholds=(3, 5, 7),
        pool: int = POOL,
        recent: int = RECENT,
        check_cap: int = 0,
        bid_samples: int = BID_SAMPLES,
        endgame: int = ENDGAME,
        endgame_nodes: int = ENDGAME_NODES,
        rollouts: int = ROLLOUTS,
        value: float = VALUE,
        value_head: int = 0,
        styles: int = STYLE_DEALS,
        style_plays: int = STYLE_PLAYS,
    ):
        # ``budget`` (botmatch --budget) overrides the number of samples
        self.samples = budget if budget is not None else samples
        self.candidates = candidates
        self.smart = smart  # Normal's policy in the playouts (else the cheaper greedy one)
        self.bidder = NormalBot(bid_thresholds)
        # Inference: deal ``pool`` x samples candidate deals and keep the samples whose
        # bids and latest ``recent`` plays by the other seats Normal's policy explains best
        # (pool 1: plain sampling).
        self.pool = max(1, int(pool))
        self.recent = int(recent)
        # plays made with more than this many options to choose from are not checked
        # (the costly ones to replay; 0: no limit)
        self.check_cap = int(check_cap)
        # Bids: 0 bids on hand strength (as Normal, with bolder thresholds); else each bid is
        # weighed over this many deals of the unseen cards, the rest of the bidding as Normal
        # would bid it and the hand played out by Normal's policy (``bid_values``).
        self.bid_samples = int(bid_samples)
        # The playouts hand over to an exact solver (``doudizhu_endgame``) once at most
        # ``endgame`` cards are left in the three hands (0: never), giving up past
        # ``endgame_nodes`` positions a solve.
        self.endgame = int(endgame)
        self.endgame_nodes = int(endgame_nodes)
        # Each sampled deal is also played out this many times by the cheap policy, which
        # draws at random (``fast_move``): a play's value on a deal is the mean of Normal's
        # playout and theirs (0: Normal's alone).
        self.rollouts = int(rollouts)
        # The learned value's weight beside Normal's playout (``doudizhu_value``; 0: none).
        self.value = float(value)
        # Which of the model's outputs: 0 the cheap policy's playouts, 1 Normal's.
        self.value_head = int(value_head)
        # Reading the other seats' styles (``read_styles``) over this many deals of the
        # unseen cards and each seat's latest ``style_plays`` plays (0: every seat plays as
        # Normal in the playouts and the inference).
        self.style_deals = int(styles)
        self.style_plays = int(style_plays)
        self.model = None
        if self.value:  # numpy only where the value is asked for
            from games.bots import doudizhu_value

            self.model = doudizhu_value.shipped()

    def act(
        self, observation: DouDizhuObservation, legal_actions: list[dict], rng: random.Random
    ) -> dict:
        if legal_actions[0]["type"] == "bid":
            if not self.bid_samples or len(legal_actions) == 1:
                return self.bidder.act(observation, legal_actions, rng)
            values = bid_values(observation, legal_actions, rng, self.bid_samples, self.bidder)
            # ties go to the lower bid
            best = max(range(len(legal_actions)), key=lambda i: (values[i], -i))
            return legal_actions[best]
        view = View(observation, legal_actions)
        cands = self._shortlist(view)
        if len(cands) == 1:
            return _to_action(view, cands[0])
        totals = self._totals(view, cands, rng, self.samples)
        # ties go to Normal's order
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return _to_action(view, cands[best])

    def _shortlist(self, view: View) -> list:
        ranked = rank_moves(view)
        if len(ranked) == 1:
            return ranked
        first = ranked[0]
        if first is not None and len(first[3]) == sum(view.hand):
            return [first]  # goes out now
        cands = ranked[: self.candidates]
        if view.can_pass and None not in cands:
            cands.append(None)
        return cands

    def _totals(self, view: View, moves: list, rng: random.Random, samples: int) -> list[float]:
        totals = [0.0] * len(moves)
        styles = None
        if self.style_deals:
            styles = read_styles(view, rng, self.style_deals, self.style_plays)
        if self.pool > 1:
            deals = infer_hands(
                view, rng, samples, self.pool * samples, self.recent, self.check_cap, styles
            )
        else:
            deals = (sample_hands(view, rng) for _ in range(samples))
        endgame = self.endgame_solver()
        rollouts = self.rollouts
        for hands in deals:
            seed = rng.random()
            seeds = [rng.random() for _ in range(rollouts)]
            for i, move in enumerate(moves):
                value = playout(view, hands, move, random.Random(seed), self.smart, endgame, styles)
                if rollouts:
                    cheap = sum(
                        playout(view, hands, move, random.Random(s), False, endgame, styles)
                        for s in seeds
                    )
                    value = (value + cheap / rollouts) / 2
                totals[i] += self.weigh(view, hands, move, value)
        return totals

    def weigh(self, view: View, hands, move, played: float) -> float:
        """A play's value on a deal: its playout's points ``played``, beside the learned
        value's expectation where the ``value`` option asks for it."""
        if self.model is None:
            return played
        learned = learned_value(view, hands, move, self.model, self.value_head)
        return (1 - self.value) * played + self.value * learned

    def endgame_solver(self) -> Endgame | None:
        """A solver for one decision's playouts, or None without ``endgame``."""
        return Endgame(self.endgame, self.endgame_nodes) if self.endgame else None

    def shortlist(
        self, observation: DouDizhuObservation, legal_actions: list[dict]
    ) -> list[dict] | None:
        """The plays Hard weighs (Normal's best few, and passing where allowed), or None
        where it does not search: a bid (Normal's choice) or a single legal action."""
        if legal_actions[0]["type"] == "bid" or len(legal_actions) == 1:
            return None
        view = View(observation, legal_actions)
        return [_to_action(view, m) for m in self._shortlist(view)]

    def evaluate(
        self,
        observation: DouDizhuObservation,
        actions: list[dict],
        rng: random.Random,
        samples: int | None = None,
    ) -> list[float]:
        """Each action's expected points for this seat at the hand's end (at the bid and the
        bombs so far, a spring not counted), over the same sampled deals."""
        legal = observation["legal_actions"] or actions
        view = View(observation, [*legal, *actions])
        moves = [None if a["type"] == "pass" else action_move(a) for a in actions]
        n = samples or self.samples
        bid = observation["multiplier"]["bid"] or 1
        return [t * bid / max(1, n) for t in self._totals(view, moves, rng, n)]


def sample_hands(view: View, rng: random.Random) -> list[list[int]]:
    """Rank counts for all three seats: ours, and the unseen cards dealt to the others."""
    hands: list[list[int]] = [[0] * NRANKS for _ in range(3)]
    hands[view.seat] = list(view.hand)
    known = [0] * NRANKS  # kitty cards still in another landlord's hand are known
    obs = view.obs
    if view.landlord is not None and view.landlord != view.seat and obs["kitty"]:
        played = {c for p in obs["plays"] if p["cards"] for c in p["cards"]}
        for card in obs["kitty"]:
            if card not in played:
                known[rank_index(card)] += 1
    pool = [r for r in range(NRANKS) for _ in range(view.unseen[r])]
    rng.shuffle(pool)
    others = [s for s in range(3) if s != view.seat]
    at = 0
    for s in others:
        base = known if s == view.landlord else [0] * NRANKS
        need = view.counts[s] - sum(base)
        h = list(base)
        for r in pool[at : at + need]:
            h[r] += 1
        at += need
        hands[s] = h
    return hands


def _history(view: View) -> list[tuple]:
    """The hand's plays so far as ``(seat, move or None, table before it)``, oldest first."""
    out = []
    table, passes = None, 0
    for p in view.obs["plays"]:
        seat = p["seat"]
        if p["cards"] is None:
            out.append((seat, None, table))
            passes += 1
            if passes == 2:
                table, passes = None, 0
        else:
            move = action_move({"type": "play", **p})
            out.append((seat, move, table))
            table, passes = (seat, move_key(move)), 0
    return out


def _bid_miss(score: float, value: int, current: int, thresholds) -> float:
    """How far (in hand_strength) a bid of ``value`` over ``current`` is from Normal's."""
    bounds = (float("-inf"), *thresholds, float("inf"))
    lo, hi = (bounds[value], bounds[value + 1]) if value else (bounds[0], bounds[current + 1])
    if score < lo:
        return lo - score
    if score >= hi:
        return score - hi
    return 0.0


def surprise(
    view: View,
    hands,
    history,
    recent: int,
    cap: float = float("inf"),
    check_cap: int = 0,
    styles=None,
) -> float:
    """How badly Normal's policy explains the other seats' bids and latest plays, were the
    hidden cards dealt as ``hands``: half a bidding threshold's width per point of hand
    strength off each bid, 1 per play it would not have made (2 outside its top three).
    Counting stops once ``cap`` is reached; plays with more than ``check_cap`` options
    (when not 0) count towards ``recent`` unchecked. A seat whose style is read as greedy
    (``styles``, ``read_styles``) is asked of the greedy follower instead: 2 per play it
    could not have made."""
    total = 0.0
    bids = view.obs["bids"]
    if bids:
        # the hands as dealt: now plus all they played, less the kitty for the landlord
        start = [list(h) for h in hands]
        for seat, move, _table in history:
            if move is not None:
                for r in move[3]:
                    start[seat][r] += 1
        kitty = view.obs["kitty"] or []
        if view.landlord is not None and kitty:
            for card in kitty:
                start[view.landlord][rank_index(card)] -= 1
        if all(min(h) >= 0 for h in start):
            current = 0
            for b in bids:
                seat, value = b["seat"], b["value"]
                if seat != view.seat:
                    score = hand_strength(start[seat])
                    total += _bid_miss(score, value, current, NormalBot.thresholds) / 2
                    if total >= cap:
                        return total
                current = max(current, value)
    checked = 0
    for seat, move, table, now in _others_plays(view, hands, history):
        if recent and checked >= recent:
            break
        checked += 1
        if styles is not None and styles[seat] == GREEDY:
            if _greedy_explains(now[seat], table, move) is False:
                total += 2.0
                if total >= cap:
                    return total
            continue
        sim = SimView(now, seat, view.landlord, table)
        if check_cap and len(sim.moves) > check_cap:
            continue
        if best_move(sim) != move:  # Normal's first choice, without ordering the rest
            total += 1.0 if move in rank_moves(sim)[:3] else 2.0
            if total >= cap:
                return total
    return total


def _others_plays(view: View, hands, history):
    """The other seats' plays this hand (``_history``), newest first, on these ``hands``: each
    as ``(seat, move, the table before it, the hands before it)``. The hands are one copy,
    changed as the plays go back: read them before asking for the next."""
    now = [list(h) for h in hands]
    for seat, move, table in reversed(history):
        if move is not None:
            for r in move[3]:
                now[seat][r] += 1
        if seat != view.seat:
            yield seat, move, table, now


def infer_hands(
    view: View,
    rng: random.Random,
    keep: int,
    pool: int,
    recent: int,
    check_cap: int = 0,
    styles=None,
) -> list:
    """``keep`` of ``pool`` sampled deals: the ones the seats' styles (Normal's policy, or
    as ``styles`` reads them) explain best (the earlier drawn on a tie)."""
    history = _history(view)
    kept: list[tuple] = []
    for i in range(pool):
        hands = sample_hands(view, rng)
        cap = kept[-1][0] if len(kept) == keep else float("inf")
        score = surprise(view, hands, history, recent, cap, check_cap, styles)
        if score < cap:
            kept.append((score, i, hands))
            kept.sort(key=lambda x: x[:2])
            del kept[keep:]
    return [hands for _s, _i, hands in kept]


def playout(
    view: View, hands, first_move, rng: random.Random, smart=False, endgame=None, styles=None
) -> float:
    """Play the hand out with the fast policy after ``first_move``; points for our side.
    ``styles``: how each seat plays in it (``read_styles``; None: as Normal or the fast
    policy)."""
    table = None if view.table_key is None else (view.table_seat, view.table_key)
    passes = view.obs["passes"]
    bombs = view.obs["multiplier"]["bombs"]
    return _play_on(
        hands,
        view.seat,
        view.landlord,
        view.seat,
        first_move,
        table,
        passes,
        bombs,
        rng,
        smart,
        endgame,
        styles,
    )


def learned_value(view: View, hands, move, model, head: int = 0) -> float:
    """The points the learned value expects for our side after we play ``move`` (None: pass)
    on these hands: exact where the play goes out."""
    table = None if view.table_key is None else (view.table_seat, view.table_key)
    passes = view.obs["passes"]
    bombs = view.obs["multiplier"]["bombs"]
    seat, landlord = view.seat, view.landlord
    if move is not None:
        hands = [list(h) for h in hands]
    table, _passes, bombs = _step(hands, seat, move, table, passes, bombs)
    if move is not None and not any(hands[seat]):
        return _points(True, seat, landlord, bombs)
    p = model.landlord_wins(hands, (seat + 1) % 3, landlord, table, head)
    ours = p if seat == landlord else 1.0 - p
    return (2.0 * ours - 1.0) * _points(True, seat, landlord, bombs)


def bid_values(
    observation: DouDizhuObservation,
    legal_actions: list[dict],
    rng: random.Random,
    samples: int,
    bidder,
) -> list[float]:
    """Each bid's mean points for this seat over ``samples`` deals of the unseen cards (the
    other hands and the kitty): the other seats bid on as Normal does, this seat as
    ``bidder`` if asked again, and the hand is played out by Normal's policy from the
    landlord's first lead (a deal thrown in is worth nothing, a spring is not counted)."""
    seat = observation["seat"]
    counts = observation["card_counts"]
    hand = counts_of(observation["hand"])
    unseen = [observation["unseen"][name] for name in _NAMES]
    pool = [r for r in range(NRANKS) for _ in range(unseen[r])]
    bids = [(b["seat"], b["value"]) for b in observation["bids"]]
    values = [a["value"] for a in legal_actions]
    totals = [0.0] * len(values)
    for _ in range(samples):
        rng.shuffle(pool)
        hands = [list(hand) if s == seat else [0] * NRANKS for s in range(3)]
        at = 0
        for s in ((seat + 1) % 3, (seat + 2) % 3):
            for r in pool[at : at + counts[s]]:
                hands[s][r] += 1
            at += counts[s]
        kitty = [0] * NRANKS
        for r in pool[at:]:
            kitty[r] += 1
        seed = rng.random()
        won: dict[int, float] = {}  # the playout's points at a bid of 1, by landlord
        for i, value in enumerate(values):
            outcome = _auction(bids, observation["bid"], seat, value, hands, bidder)
            if outcome is None:
                continue
            landlord, bid = outcome
            if landlord not in won:
                start = [list(h) for h in hands]
                for r in range(NRANKS):
                    start[landlord][r] += kitty[r]
                won[landlord] = _play_on(
                    start, seat, landlord, landlord, None, None, 0, 0, random.Random(seed), True
                )
            totals[i] += won[landlord] * bid
    return totals


def _auction(bids, current: int, seat: int, value: int, hands, bidder) -> tuple | None:
    """The landlord and the bid after ``seat`` bids ``value``, the bidding run on by the
    engine's rules (``after_bid``); None for a deal thrown in. The others bid as Normal would
    on ``hands``, ``seat`` again as ``bidder``."""
    bids = [*bids, (seat, value)]
    current = max(current, value)
    for _ in range(12):
        course, turn = after_bid(bids, current)
        if course == "landlord":
            return turn, current
        if course == "thrown_in":
            return None
        thresholds = bidder.thresholds if turn == seat else NormalBot.thresholds
        choice = _bid_for(hand_strength(hands[turn]), thresholds, allowed_bids(current))
        bids.append((turn, choice))
        current = max(current, choice)
    return None


def _play_on(
    hands, seat, landlord, turn, move, table, passes, bombs, rng, smart, endgame=None, styles=None
) -> float:
    """Points for ``seat``'s side when ``turn`` plays ``move`` (None: passes; with no table,
    None is the landlord's first lead, chosen by the policy) and the hand is played out;
    with an ``endgame`` solver, by it once few enough cards are left (no more bombs
    counted from there). ``styles``: a seat's style where it is not the policy's
    (``read_styles``)."""
    hands = [list(h) for h in hands]
    if move is None and table is None:
        move = _policy(hands, turn, landlord, None, rng, smart, styles)
    for _ in range(200):
        table, passes, bombs = _step(hands, turn, move, table, passes, bombs)
        if move is not None and not any(hands[turn]):
            return _points((turn == landlord) == (seat == landlord), seat, landlord, bombs)
        turn = (turn + 1) % 3
        if endgame is not None:
            landlord_wins = endgame.landlord_wins(hands, turn, landlord, table)
            if landlord_wins is not None:
                return _points(landlord_wins == (seat == landlord), seat, landlord, bombs)
        move = _policy(hands, turn, landlord, table, rng, smart, styles)
    return 0.0


def _step(hands, turn: int, move, table, passes: int, bombs: int) -> tuple:
    """``turn`` plays ``move`` (None: passes) on ``hands``, changed in place: the play to beat,
    the passes in a row and the bombs after it (two passes in a row clear the play to beat)."""
    if move is None:
        return (None, 0, bombs) if passes + 1 == 2 else (table, passes + 1, bombs)
    for r in move[3]:
        hands[turn][r] -= 1
    if move[0] in ("bomb", "rocket"):
        bombs += 1
    return (turn, move_key(move)), 0, bombs


def _points(won: bool, seat: int, landlord: int, bombs: int) -> int:
    value = 2**bombs
    if seat == landlord:
        value *= 2  # the landlord wins or loses against both peasants
    return value if won else -value


def _policy(hands, turn, landlord, table, rng, smart, styles=None):
    if styles is not None and styles[turn] == GREEDY:
        return greedy_move(hands, turn, table, landlord, rng)
    if smart:
        return best_move(SimView(hands, turn, landlord, table))
    return fast_move(hands, turn, table, landlord, rng)


def fast_move(hands, seat, table, landlord, rng):
    """The playout policy: cheap, greedy, partner-aware."""
    hand = hands[seat]
    total = sum(hand)
    if table is None:
        whole = read_counts(hand)
        if whole:
            return whole[0]
        return _greedy_lead(hand)
    owner, key = table
    partner_holds = owner != seat and landlord not in (owner, seat)
    options = follows(hand, key)
    if not options:
        return None
    for m in options:
        if len(m[3]) == total:
            return m
    if partner_holds:
        return None
    owner_cards = sum(hands[owner])
    plain = [m for m in options if m[0] not in ("bomb", "rocket")]
    if plain:
        best = min(plain, key=lambda m: (m[1], sum(m[3])))
        if best[1] >= CONTROL and owner_cards > 6 and total > 4 and rng.random() < 0.6:
            return None
        return best
    if owner_cards <= 4 or total <= 5:
        return min(options, key=lambda m: (m[0] == "rocket", m[1]))
    return None


def _greedy_lead(hand):
    low = next(r for r in range(NRANKS) if hand[r])
    if low <= 7:
        # the longest chain from the lowest card
        length = 0
        while low + length <= 11 and hand[low + length]:
            length += 1
        if length >= 5:
            return ("chain", low, length, tuple(range(low, low + length)))
    n = hand[low]
    if n == 4 and sum(hand) > 4:
        n = 1  # keep the bomb: play something else first
        rest = [r for r in range(NRANKS) if hand[r] and r != low]
        r = rest[0]
        k = min(hand[r], 2 if hand[r] < 4 else 1)
        return ("solo" if k == 1 else "pair", r, 1, (r,) * k)
    if n == 3:
        for k in range(NRANKS):
            if k != low and hand[k] == 1 and k < CONTROL:
                return ("trio_solo", low, 1, tuple(sorted((low, low, low, k))))
        for k in range(TWO + 1):
            if k != low and hand[k] == 2 and k < CONTROL:
                return ("trio_pair", low, 1, tuple(sorted((low, low, low, k, k))))
        return ("trio", low, 1, (low,) * 3)
    if n == 2 and low < BJ:
        return ("pair", low, 1, (low, low))
    return ("solo", low, 1, (low,))


# ---------------------------------------------------------------- styles of play

# A style Hard may read in another seat (``read_styles``): the greedy follower, who beats
# every play it can with the lowest play of the same kind (breaking up pairs, trios and
# chains to do so), and otherwise, unless its partner holds the trick, plays anything it may
# (a bomb or a pass) at random; it leads the play that holds its lowest card. Rule-based
# programs (RLCard's among them) and many beginners play so; Normal's policy, which keeps
# its plan and its control, does not, and a playout that makes such a seat play as Normal
# judges every play against the wrong opponent.
GREEDY = "greedy"


def _lowest(hand) -> int:
    return next(r for r in range(NRANKS) if hand[r])


def _in_kind(options, key) -> list:
    """The plays among ``options`` (beats of the play to beat, ``key``) of its own kind."""
    return [m for m in options if m[0] == key[0]]


def greedy_move(hands, seat, table, landlord, rng):
    """The greedy follower's play on these hands (None: pass)."""
    hand = hands[seat]
    if table is None:
        return _lowest_lead(hand)
    owner, key = table
    options = follows(hand, key)
    same = _in_kind(options, key)
    if same:
        return min(same, key=lambda m: m[1])
    if landlord not in (owner, seat):
        return None  # the partner holds it
    return rng.choice([*options, None])


def _lowest_lead(hand):
    """The play that holds the hand's lowest card: its bomb or trio, a chain of at least
    five from it (over ranks held once or twice), its pair, or the card alone."""
    low = _lowest(hand)
    if low >= BJ:
        return ("rocket", RJ, 1, (BJ, RJ)) if hand[BJ] and hand[RJ] else ("solo", low, 1, (low,))
    n = hand[low]
    if n == 4:
        return ("bomb", low, 1, (low,) * 4)
    if n == 3:
        return ("trio", low, 1, (low,) * 3)
    length = 0
    while low + length < TWO and 1 <= hand[low + length] <= 2:
        length += 1
    if length >= 5:
        return ("chain", low, length, tuple(range(low, low + length)))
    return ("pair", low, 1, (low, low)) if n == 2 else ("solo", low, 1, (low,))


def _greedy_explains(hand, table, move) -> bool | None:
    """Whether the greedy follower could have made ``move`` from ``hand`` on ``table``: a
    lead that holds its lowest card; on a play it could beat in kind, the lowest such beat.
    None where it could not beat in kind (it would have played anything)."""
    if table is None:
        return move is not None and _lowest(hand) in move[3]
    key = table[1]
    same = _in_kind(follows(hand, key), key)
    if not same:
        return None
    lowest = min(m[1] for m in same)
    return move is not None and move[0] == key[0] and move[1] == lowest


def read_styles(view: View, rng: random.Random, deals: int, recent: int) -> tuple | None:
    """How each other seat plays, read from its latest ``recent`` plays this hand: over
    ``deals`` deals of the unseen cards, the plays Normal's policy would have made against
    those the greedy follower could have, where the greedy follower had one play to make (a
    lead, or a beat in kind); a seat that the greedy follower explains twice as well (its
    misses and one at most half of Normal's and one) is read as greedy. A style per seat
    (None: Normal's), or None where every seat plays as Normal."""
    history = _history(view)
    others = [s for s in range(3) if s != view.seat]
    misses = {s: [0, 0] for s in others}  # Normal's, the greedy follower's
    for _ in range(deals):
        checked = dict.fromkeys(others, 0)
        for seat, move, table, now in _others_plays(view, sample_hands(view, rng), history):
            if checked[seat] >= recent:
                continue
            checked[seat] += 1
            greedy = _greedy_explains(now[seat], table, move)
            if greedy is None:
                continue
            if best_move(SimView(now, seat, view.landlord, table)) != move:
                misses[seat][0] += 1
            if not greedy:
                misses[seat][1] += 1
    styles = tuple(
        GREEDY if s in misses and 2 * (misses[s][1] + 1) <= misses[s][0] + 1 else None
        for s in range(3)
    )
    return styles if any(styles) else None


BOTS = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}

__all__ = ["BOTS", "EasyBot", "HardBot", "NormalBot", "hint"]
