"""Gan Deng Yan's guided first hand: three players, everyone draws (the table's defaults).

The deal is seed 1103 of ``game.new_match(seed, seats=3)``, found by playing random deals out
with the normal bot in every seat and keeping the hands where the learner beats by exactly one
rank, uses a joker, passes, draws after taking a trick, and a bomb falls
(/work/scratch/lessons/gandengyan/search2.py, shown move by move with show.py there). The
script is that bots' hand as played, unedited:

- 0: the learner leads a pair of queens; nobody answers, everyone draws (the learner the A♦).
- 3, 6: the learner leads the 7♣, the right-hand player follows with the 8♥ and the learner
  beats it with the 9♥, exactly one rank higher (the quiz: 10♠, 9♥ or A♦ on the 8♥?).
- 9, 12: the learner's 10♠ is followed by the J♦, then bombed by three 4s; the learner passes.
- 15: nothing follows the left-hand player's straight Q–K–A but a bomb: the learner passes.
- 18: holding three 2s (the 2♥ and 2♦ drawn), the learner bombs the left-hand player's single 3 (that
  player is down to two cards).
- 21: the learner draws the red joker and goes out with K♣ A♦ and the joker as the queen of a
  straight Q–K–A. Two bombs (×4); the right-hand player is caught with the black joker (×8).
"""

from django.utils.translation import gettext_lazy as _

from games.tables.base import Lesson, Quiz, Step


def _single(card: str, rank: str) -> dict:
    return {
        "type": "play",
        "cards": [card],
        "combo": {"kind": "single", "low": rank, "high": rank, "count": 1},
    }


PASS = {"type": "pass"}

DEAL = {
    "hands": [
        ["7C", "9H", "TS", "QD", "QH", "2S"],
        ["3S", "4C", "5H", "6D", "BJ"],
        ["3C", "4D", "4H", "QC", "AS"],
    ],
    "stock": [
        "AD", "8H", "KD", "KC", "JD", "4S", "5D", "2H", "TH", "7S", "2D", "JH", "RJ", "8C",
        "6S", "QS", "AH", "3D", "6H", "7H", "6C", "7D", "9S", "2C", "AC", "TD", "KS", "KH",
        "3H", "8S", "8D", "TC", "JS", "JC", "5C", "9C", "9D", "5S",
    ],
}  # fmt: skip

SCRIPT = (
    # Trick 1: your pair of queens; nobody has a pair of kings. Everyone draws.
    (0, {"type": "play", "cards": ["QD", "QH"],
         "combo": {"kind": "pair", "low": "Q", "high": "Q", "count": 2}}),
    (1, PASS),
    (2, PASS),
    # Trick 2: 7, 8, and your 9: each exactly one rank higher.
    (0, _single("7C", "7")),
    (1, _single("8H", "8")),
    (2, PASS),
    (0, _single("9H", "9")),
    (1, PASS),
    (2, PASS),
    # Trick 3: 10, J, then a bomb of three 4s.
    (0, _single("TS", "T")),
    (1, _single("JD", "J")),
    (2, {"type": "play", "cards": ["4D", "4H", "4S"],
         "combo": {"kind": "bomb", "low": "4", "high": "4", "count": 3}}),
    (0, PASS),
    (1, PASS),
    # Trick 4: the ace-high straight nobody can follow.
    (2, {"type": "play", "cards": ["QC", "KD", "AS"],
         "combo": {"kind": "straight", "low": "Q", "high": "A", "count": 3}}),
    (0, PASS),
    (1, PASS),
    # Trick 5: a single 3, and your bomb of three 2s.
    (2, _single("3C", "3")),
    (0, {"type": "play", "cards": ["2D", "2H", "2S"],
         "combo": {"kind": "bomb", "low": "2", "high": "2", "count": 3}}),
    (1, PASS),
    (2, PASS),
    # Trick 6: K, A and the red joker as the queen: out.
    (0, {"type": "play", "cards": ["KC", "AD", "RJ"],
         "combo": {"kind": "straight", "low": "Q", "high": "A", "count": 3}}),
)  # fmt: skip

STEPS = {
    0: Step(
        say=_(
            "You dealt, so you hold six cards and you lead. A lead may be any valid play: a "
            "single, a pair, a straight, a pair run or a bomb. Play your pair of queens, Q♦ "
            "and Q♥."
        ),
        point=("#center",),
        why=_(
            "The pair gets rid of two cards at once, and only a pair of kings, a pair of 2s "
            "or a bomb can answer it."
        ),
        after=_(
            "Each player in turn must answer with a pair of kings, a pair of 2s or a bomb, or pass."
        ),
    ),
    3: Step(
        say=_(
            "Nobody could answer, so the trick is yours. Before you lead again, everyone "
            "draws one card from the stock, you first: you got the A♦. Lead your lowest "
            "card, the 7♣."
        ),
        point=("#center", "#info-stock"),
        why=_(
            "Low single cards are the hardest to get rid of. Play them while you have the "
            "lead, and keep the ace and the 2 for later."
        ),
        after=_("On a single 7 the next player may play only an 8, a 2 or a bomb. Watch."),
    ),
    6: Step(
        say=_(
            "The player on your right followed your 7 with the 8♥. Here is the rule that "
            "gives the game its name, “staring eyes”: on a single 8 only a 9 will do (or a "
            "2, or a bomb). Play your 9♥."
        ),
        point=("#center", "#status"),
        why=_(
            "Your 2♠ would win here too, but it is your strongest single: keep it for when "
            "nothing else will do."
        ),
        after=_("Now only a 10, a 2 or a bomb beats your 9. Does anyone have one?"),
        quiz=Quiz(
            question=_(
                "The player on your right played the 8♥. Which of these cards may follow it?"
            ),
            choices=(("TS",), ("9H",), ("AD",)),
            answer=1,
            right=_("Right: the 9 is exactly one rank above the 8."),
            wrong=_(
                "Higher is not enough: on an 8 only a 9 will do. The 10 and the ace are too "
                "high; only a 2 or a bomb skips the rule."
            ),
        ),
    ),
    9: Step(
        say=_(
            "Nobody had a 10, so the trick is yours again, and this time you drew the K♣. "
            "Lead your lowest card, the 10♠."
        ),
        point=("#center",),
        why=_(
            "Shed the low card while the lead is yours: the king, the ace and the 2 are "
            "easier to play later."
        ),
        after=_("Only a jack, a 2 or a bomb can follow your 10."),
    ),
    12: Step(
        say=_(
            "The player on your right followed with the J♦, then the player on your left "
            "played three 4s: a bomb. A bomb ignores the one-rank rule and beats every play "
            "that is not a bomb. You have no bomb, so tap Pass."
        ),
        point=("#center", "#info-bombs", '[data-testid="pass"]'),
        after=_(
            "You may always pass, and you play again when your turn comes round. Every bomb "
            "doubles what the losers pay: see the bomb counter."
        ),
    ),
    15: Step(
        say=_(
            "The player on your left took the trick and led the straight Q–K–A. You drew the "
            "2♥, but a 2 never goes into a straight, and nothing is one rank higher than an "
            "ace-high straight. Only a bomb would beat it: pass again."
        ),
        point=("#center", '[data-testid="pass"]'),
        after=_("Watch the player on your left: they are running low on cards."),
    ),
    18: Step(
        say=_(
            "Your draw was the 2♦: you now hold three 2s. The player on your left led a "
            "single 3 and has only two cards left, so take the lead from them: play your "
            "three 2s as a bomb."
        ),
        point=("#center", "#seat-2"),
        why=_(
            "A single 2 would win this trick too, but the bomb sheds three cards at once. A "
            "bomb doubles the stakes for everyone, so bomb when you are close to going out, "
            "as you are now."
        ),
        after=_("Only a bomb of four or more cards, or the two jokers, could beat your three 2s."),
    ),
    21: Step(
        say=_(
            "Nobody could beat your bomb, and your draw brought the red joker. A joker stands "
            "for any rank from 3 to ace, never a 2: with your K♣ and A♦ it makes the straight "
            "Q–K–A. Play all three cards and go out!"
        ),
        point=("#center",),
        why=_(
            "This straight empties your hand at once. A joker still in your hand when "
            "someone else goes out doubles what you pay."
        ),
    ),
}

LESSON = Lesson(
    deal=DEAL,
    dealer=0,
    options=None,
    script=SCRIPT,
    steps=STEPS,
    intro=_(
        "Gan Deng Yan is a shedding game: the first player to get rid of every card wins, "
        "and the others pay for the cards they still hold. Its big rule: you beat a play "
        "only with the same shape exactly one rank higher. After each trick the players "
        "draw from the stock, so hands grow as well as shrink."
    ),
    summary=(
        _("Follow with the same shape exactly one rank higher: on an 8 only a 9."),
        _(
            "A single 2 beats any single, a pair of 2s any pair; but a 2 never goes into a straight."
        ),
        _(
            "Three or more of a kind is a bomb: it beats every play that is not a bomb, and "
            "each bomb doubles the stakes."
        ),
        _("You may always pass, and you play again when your turn comes round."),
        _(
            "When all the others pass, the last player takes the trick, everyone draws a card "
            "from the stock, the winner first, and the winner leads."
        ),
        _(
            "A joker stands for any rank from 3 to ace, never a 2, and normally cannot be played "
            "on its own."
        ),
        _(
            "The first player out wins; the others pay for each card left, doubled for every "
            "bomb and for every joker still in their hand."
        ),
    ),
)
