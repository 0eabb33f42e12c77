"""Dou Dizhu's perfect-information player, benchmark-only (see games/bench/perfect.py)."""

from __future__ import annotations

import random

from games.bench.perfect import best
from games.bots import doudizhu
from games.engine.doudizhu.combos import counts_of


class DouDizhuPerfect:
    """Hard's candidates played out on the true hands; bids played out on the engine."""

    sees_all = True

    def __init__(
        self,
        candidates: int = 4,
        endgame: int | None = None,
        value: float = 0.0,
        value_head: int = 0,
        styles: int | None = None,
    ):
        # ``endgame``, ``styles``: as Hard's options (its defaults unless given); ``value``:
        # the learned value's weight beside Normal's playout, as Hard's option
        options = {} if endgame is None else {"endgame": endgame}
        if styles is not None:
            options["styles"] = styles
        self.search = doudizhu.HardBot(
            samples=1,
            candidates=candidates,
            smart=True,
            value=value,
            value_head=value_head,
            **options,
        )
        self.policy = doudizhu.NormalBot()

    def act(self, observation: dict, legal_actions: list[dict], rng: random.Random) -> dict:
        raise TypeError("the perfect player needs the whole state: act_seeing_all")

    def act_seeing_all(self, game, state, seat: int, legal: list[dict], rng: random.Random):
        if len(legal) == 1:
            return legal[0]
        if legal[0]["type"] == "bid":
            bid_seed = rng.getrandbits(64)  # the same playout rng after every bid
            return best(legal, [self.bid_value(game, state, seat, a, bid_seed) for a in legal])
        view = doudizhu.View(game.observation(state, seat), legal)
        moves = self.search._shortlist(view)
        if len(moves) == 1:
            return doudizhu._to_action(view, moves[0])
        hands = true_counts(game, state)
        search = self.search
        styles = None
        if search.style_deals:  # the other seats' styles, read as Hard reads them
            styles = doudizhu.read_styles(view, rng, search.style_deals, search.style_plays)
        playout_seed = rng.random()
        endgame = search.endgame_solver()
        values = [
            doudizhu.playout(view, hands, m, random.Random(playout_seed), True, endgame, styles)
            for m in moves
        ]
        values = [search.weigh(view, hands, m, v) for v, m in zip(values, moves, strict=True)]
        return best([doudizhu._to_action(view, m) for m in moves], values)

    def bid_value(self, game, state, seat: int, action: dict, seed: int) -> float:
        """This seat's hand score after ``action``, every seat then bidding and playing as
        Normal; a deal thrown in (all passed) is worth nothing."""
        state = game.apply(state, seat, action)
        redeals = game.to_json(state)["redeals"]
        playout_rng = random.Random(seed)
        while not game.hand_over(state):
            if game.to_json(state)["redeals"] != redeals:
                return 0.0
            (mover,) = game.to_move(state)
            legal = game.legal_actions(state, mover)
            choice = self.policy.act(game.observation(state, mover), legal, playout_rng)
            state = game.apply(state, mover, choice)
        return float(game.hand_result(state)["scores"][seat])


def true_counts(game, state) -> list[list[int]]:
    """Dou Dizhu's hands as the bots' rank counts, from the engine's JSON form of the state."""
    return [counts_of(hand) for hand in game.to_json(state)["hands"]]
