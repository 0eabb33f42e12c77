"""Dou Dizhu endgames solved exactly, every hand known: does the landlord's side go out first?

Hard's playouts hand over to this when few cards are left in the three hands of a sampled
deal: from there on the deal is played as well as it can be by both sides, instead of by
Normal's policy. A search of the game tree (the landlord needs one play that wins; the
peasants' side needs one play that stops every win of the landlord), its positions
remembered across the playouts of one decision. Its work is capped by a count of positions,
never a clock; past the cap it gives up and the playout goes on with the policy.
"""

from __future__ import annotations

from games.engine.doudizhu.combos import KINDS, follows, leads, move_key

_KIND = {kind: number for number, kind in enumerate(KINDS)}  # a play's kind as a byte


class Endgame:
    """Solves the endgames of one decision's playouts, sharing what it has solved."""

    def __init__(self, cards: int, nodes: int):
        self.cards = cards  # hand over to the solver with at most this many cards left
        self.nodes = nodes  # positions visited per solve before giving up
        # Positions as bytes: kept as tuples (four to a position, by the hundred thousand),
        # they made the garbage collector's full passes walk them all, again and again:
        # a fifth of Hard's time, and its slowest decisions over a second.
        self.known: dict[bytes, bool] = {}
        self.left = 0

    def landlord_wins(self, hands, turn: int, landlord: int, table) -> bool | None:
        """Whether the landlord's side goes out first with both sides playing perfectly:
        ``turn`` to play, ``table`` the play to beat as ``(owner, key)`` or None to lead.
        None when the position is not an endgame or the count of positions ran out."""
        if sum(map(sum, hands)) > self.cards:
            return None
        self.left = self.nodes
        hands = [list(h) for h in hands]
        try:
            return self._wins(hands, turn, landlord, table)
        except _OutOfNodes:
            return None

    def _wins(self, hands, turn, landlord, table) -> bool:
        if table is not None and table[0] == turn:
            table = None  # everyone else passed: a new trick
        if table is None:
            key = bytes((*hands[0], *hands[1], *hands[2], turn))
        else:
            kind, low, length, count = table[1]
            key = bytes(
                (*hands[0], *hands[1], *hands[2], turn, table[0], _KIND[kind], low, length, count)
            )
        known = self.known.get(key)
        if known is not None:
            return known
        self.left -= 1
        if self.left < 0:
            raise _OutOfNodes
        hand = hands[turn]
        left = sum(hand)
        moves = leads(hand) if table is None else follows(hand, table[1])
        mine = turn == landlord
        nxt = (turn + 1) % 3
        result = not mine  # no play wins for the side to move: the other side wins
        # the plays that go out first, then the longer ones
        for move in sorted(moves, key=lambda m: -len(m[3])):
            ranks = move[3]
            if len(ranks) == left:
                result = mine
                break
            for r in ranks:
                hand[r] -= 1
            won = self._wins(hands, nxt, landlord, (turn, move_key(move)))
            for r in ranks:
                hand[r] += 1
            if won == mine:
                result = mine
                break
        else:
            if table is not None and self._wins(hands, nxt, landlord, table) == mine:
                result = mine  # passing wins
        self.known[key] = result
        return result


class _OutOfNodes(Exception):
    pass
