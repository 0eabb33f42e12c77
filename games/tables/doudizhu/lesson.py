"""Dou Dizhu's guided first hand: the learner (seat 0) deals, bids 3, becomes the landlord,
takes the three face-down cards (9♦ K♦ 2♣, shown to all) and goes out in three leads while
the peasants pass every time: a chain 3–10 (eight cards), a plane J-J-J-Q-Q-Q with the K♦ and
A♠ as wings, and the bomb of 2s, which wins with a spring (bid 3 × 2 for the bomb × 2 for the
spring: 12 from each peasant).

How it was found: the learner's 20 cards were chosen by hand so that the kitty completes the
chain (9♦), a wing (K♦) and the bomb (2♣); the peasants' 34 cards were split at random
(``random.Random(2)``, the first split that passed) until neither peasant can beat any of the
three leads (at each of their turns a pass is their only legal action: no higher chain or
plane, no bomb, the jokers apart), and the left-hand player holds two aces and a joker for
its bid of 1. Search and replay: /work/scratch/lessons/doudizhu/search.py and build.py.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.tables.base import Lesson, Quiz, Step


def _cards(codes: str) -> list[str]:
    return codes.split()


LESSON = Lesson(
    deal={
        "hands": [
            _cards("3S 4H 5D 6C 7S 8H TC JS JH JD QS QH QC AS 2S 2H 2D"),
            _cards("3H 3D 4S 4D 4C 6S 6D 7H 8C 9S TH TD JC KH KC AH RJ"),
            _cards("3C 5S 5H 5C 6H 7D 7C 8S 8D 9H 9C TS QD KS AD AC BJ"),
        ],
        "kitty": ["9D", "KD", "2C"],
    },
    dealer=0,
    options={"hands": 1},  # one hand: the table says "Hand 1 of 1"
    script=(
        (1, {"type": "bid", "value": 0}),
        (2, {"type": "bid", "value": 1}),
        (0, {"type": "bid", "value": 3}),
        (
            0,
            {
                "type": "play",
                "cards": ["3S", "4H", "5D", "6C", "7S", "8H", "9D", "TC"],
                "combo": {"kind": "chain", "low": "3", "high": "T", "count": 8},
            },
        ),
        (1, {"type": "pass"}),
        (2, {"type": "pass"}),
        (
            0,
            {
                "type": "play",
                "cards": ["JS", "JH", "JD", "QS", "QH", "QC", "KD", "AS"],
                "combo": {"kind": "airplane_solo", "low": "J", "high": "Q", "count": 8},
            },
        ),
        (1, {"type": "pass"}),
        (2, {"type": "pass"}),
        (
            0,
            {
                "type": "play",
                "cards": ["2S", "2H", "2D", "2C"],
                "combo": {"kind": "bomb", "low": "2", "high": "2", "count": 4},
            },
        ),
    ),
    steps={
        2: Step(
            say=_(
                "You dealt, so the bidding began on your right: that player passed, and the "
                "player on your left bid 1. With three 2s, a run from 3 to 8 and trios of "
                "jacks and queens, your hand is strong. Bid 3 points: the top bid ends the "
                "bidding at once and makes you the landlord."
            ),
            point=("#seat-1", "#seat-2", '[data-testid="bid-3"]'),
            why=_(
                "A bid of 3 ends the bidding at once, and the landlord's seat is yours. Bid "
                "only 2 and the player on your left could still raise to 3; pass and they "
                "become the landlord with their 1."
            ),
        ),
        3: Step(
            say=_(
                "You are the landlord: the three face-down cards (9♦, K♦, 2♣) were shown to "
                "everyone and joined your hand, which now holds 20 cards. The 9♦ fills the gap "
                "in your run, so 3 up to 10 is a chain of eight cards, and the 2♣ is your "
                "fourth 2. You lead: play the whole chain."
            ),
            point=("#info-kitty",),
            why=_(
                "You may lead any combination, but lone low cards are the landlord's weak "
                "spot: each one is easy to beat. The chain gets rid of eight of them in a "
                "single play."
            ),
            after=_(
                "To beat an eight-card chain, a peasant needs a higher chain of exactly eight "
                "cards, a bomb or the rocket. Anyone may pass instead."
            ),
        ),
        6: Step(
            say=_(
                "Both peasants passed, and after two passes in a row the last player to play "
                "leads again: you. Your jacks and queens are two trios of neighbouring ranks, "
                "a plane. Add your lone K♦ and A♠ as its two wings and play all eight cards."
            ),
            point=("#status",),
            why=_(
                "The plane with wings sheds eight cards at once, and the lone K and A fly "
                "along instead of staying behind as singles. Keep the four 2s for last: only "
                "the rocket beats a bomb of 2s, so they are the safest way to go out."
            ),
            after=_(
                "Only two higher trios in a row with two wings, a bomb or the rocket could "
                "beat your plane."
            ),
            quiz=Quiz(
                question=_("Which of these is a plane with wings?"),
                choices=(
                    ("5S", "5H", "5D", "7S", "7H", "7C", "3D", "9C"),
                    ("5S", "5H", "5D", "6S", "6H", "6C", "3D", "9C"),
                    ("5S", "5H", "5D", "6S", "6H", "6C", "9C"),
                    ("AS", "AH", "AD", "2S", "2H", "2C", "3D", "9C"),
                ),
                answer=1,
                right=_(
                    "Right: the 5s and 6s are two trios in a row, and the 3 and the 9 are one "
                    "wing for each trio."
                ),
                wrong=_(
                    "Not that one. A plane needs trios of neighbouring ranks, never with a 2, "
                    "and it carries exactly one wing per trio: two trios, two wings."
                ),
            ),
        ),
        9: Step(
            say=_(
                "Passes again, and the peasants still hold all 17 cards each: neither has "
                "played a single card. Four of a kind is a bomb, which beats any play that is "
                "not a bomb and doubles the stake. Play your four 2s: going out now is a "
                "spring as well, so the stake of 3 doubles twice, to 12."
            ),
            point=("#seat-1-backs", "#seat-2-backs", "#info-stake"),
            why=_(
                "As one bomb, the four 2s end the hand now and double the stake. Split into "
                "smaller plays they would need more leads, each a chance for a peasant to "
                "play a card, and that card would cost you the spring."
            ),
        ),
    },
    intro=_(
        "Dou Dizhu is played by three. After the bidding, the landlord plays alone with 20 "
        "cards against two peasants, and the first side to get rid of all its cards wins. In "
        "this hand you bid, become the landlord and try to go out before either peasant "
        "plays a single card."
    ),
    summary=(
        _(
            "Bid 1, 2 or 3 points or pass; each bid must be higher than the last, and a 3 "
            "ends the bidding at once."
        ),
        _(
            "The highest bidder is the landlord: the three face-down cards are shown to all, "
            "join the landlord's hand, and the landlord leads."
        ),
        _(
            "A chain is five or more single cards in a row, from 3 up to the ace; a 2 or a "
            "joker never joins one."
        ),
        _(
            "A plane is two or more trios in a row; with wings it carries one single or one "
            "pair for each trio."
        ),
        _(
            "To beat a play, use the same kind with as many cards and a higher rank, or a bomb "
            "or the rocket. Only the leader must play: anyone else may always pass."
        ),
        _("After two passes in a row, the last player to play leads again."),
        _(
            "A bomb (four of a kind) beats any play that is not a bomb; only a higher bomb or "
            "the rocket beats it, and each bomb doubles the stake."
        ),
        _(
            "Spring: the landlord goes out before either peasant has played a card, and the "
            "stake doubles again. Here: bid 3 × 2 for the bomb × 2 for the spring = 12 from "
            "each peasant."
        ),
    ),
)
