"""Gong Zhu's guided first hand.

The deal shows the four special cards at work. You hold the pig (Q♠) with four low spades and
the goat (J♦) with only low diamonds beside it. You expose the pig, the only card anybody
exposes; the first spade trick shows the exposure rule (the Q♠ is dimmed), and in the second
you drop the pig under the K♠ of the player on your left, who pays −200 for it. Meanwhile you
play low diamonds while A♦, Q♦ and K♦ fall, until your goat is the last diamond; you lead it
and win it (+100, with the 8♥ and Q♥ the others throw on it). The player opposite collects most of the
hearts and then the transformer (10♣), which doubles them (−100).

Found with /work/scratch/lessons/gongzhu/search.py (every seat Normal, seat 0 as well, so each
of the learner's moves is also the Hint): seed 47 of ``game.new_match(seed, 4)``, hand 1;
the 2♠ (yours) leads, so ``dealer`` is None. No move was edited.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.tables.base import Lesson, Quiz, Step


def _play(card: str) -> dict:
    return {"type": "play", "card": card}


DEAL = {
    "hands": [
        ["QS", "8S", "5S", "3S", "2S", "5H", "KC", "4C", "JD", "8D", "7D", "6D", "3D"],
        ["9S", "7S", "JH", "8H", "6H", "4H", "3H", "JC", "6C", "5C", "3C", "9D", "2D"],
        ["TS", "6S", "4S", "AH", "KH", "QH", "7H", "AC", "QC", "7C", "2C", "TD", "4D"],
        ["AS", "KS", "JS", "TH", "9H", "2H", "TC", "9C", "8C", "AD", "KD", "QD", "5D"],
    ]
}

SCRIPT = (
    # The exposure phase: the computer players decide first, then you.
    (1, {"type": "expose", "cards": []}),  # 0
    (2, {"type": "expose", "cards": []}),  # 1
    (3, {"type": "expose", "cards": []}),  # 2
    (0, {"type": "expose", "cards": ["QS"]}),  # 3
    # Trick 1: you lead (2♠); the A♦ wins.
    (0, _play("3D")),  # 4
    (1, _play("2D")),  # 5
    (2, _play("4D")),  # 6
    (3, _play("AD")),  # 7
    # Trick 2: hearts; the player opposite takes 2♥ 5♥ 4♥ 7♥.
    (3, _play("2H")),  # 8
    (0, _play("5H")),  # 9
    (1, _play("4H")),  # 10
    (2, _play("7H")),  # 11
    # Trick 3: the first spade trick, your exposed Q♠ held back; the J♠ wins.
    (2, _play("4S")),  # 12
    (3, _play("JS")),  # 13
    (0, _play("8S")),  # 14
    (1, _play("9S")),  # 15
    # Trick 4: diamonds; the 10♦ wins.
    (3, _play("5D")),  # 16
    (0, _play("6D")),  # 17
    (1, _play("9D")),  # 18
    (2, _play("TD")),  # 19
    # Trick 5: you drop the pig under the K♠.
    (2, _play("6S")),  # 20
    (3, _play("KS")),  # 21
    (0, _play("QS")),  # 22
    (1, _play("7S")),  # 23
    # Trick 6: the Q♦ wins, J♥ and A♥ land on it.
    (3, _play("QD")),  # 24
    (0, _play("8D")),  # 25
    (1, _play("JH")),  # 26
    (2, _play("AH")),  # 27
    # Trick 7: the K♦ wins, with the K♥.
    (3, _play("KD")),  # 28
    (0, _play("7D")),  # 29
    (1, _play("JC")),  # 30
    (2, _play("KH")),  # 31
    # Trick 8: clubs; the A♣ wins.
    (3, _play("8C")),  # 32
    (0, _play("4C")),  # 33
    (1, _play("6C")),  # 34
    (2, _play("AC")),  # 35
    # Trick 9: your only club, the K♣, wins an empty trick.
    (2, _play("2C")),  # 36
    (3, _play("9C")),  # 37
    (0, _play("KC")),  # 38
    (1, _play("5C")),  # 39
    # Trick 10: you lead the goat, the last diamond, and win it.
    (0, _play("JD")),  # 40
    (1, _play("8H")),  # 41
    (2, _play("QH")),  # 42
    (3, _play("AS")),  # 43
    # Trick 11: the 10♠ wins; the transformer is dropped on it.
    (0, _play("2S")),  # 44
    (1, _play("6H")),  # 45
    (2, _play("TS")),  # 46
    (3, _play("TC")),  # 47
    # Trick 12: clubs; the 7♣ wins the 10♥.
    (2, _play("7C")),  # 48
    (3, _play("TH")),  # 49
    (0, _play("5S")),  # 50
    (1, _play("3C")),  # 51
    # Trick 13: the Q♣ wins the 9♥ and the 3♥.
    (2, _play("QC")),  # 52
    (3, _play("9H")),  # 53
    (0, _play("3S")),  # 54
    (1, _play("3H")),  # 55
)

STEPS = {
    3: Step(
        say=_(
            "Before the first trick you may expose A♥, Q♠, J♦ or 10♣: an exposed card counts "
            "double for whoever takes it. Your pig has four lower spades to hide behind, so "
            "exposing it is safe and makes it cost someone else −200. Tick the Q♠ and press "
            "Confirm."
        ),
        point=('.exposure__option:has(input[value="QS"])', '[data-testid="expose-confirm"]'),
        why=_(
            "Expose only what you can protect. Your four low spades let you pass the pig on "
            "later, so exposing it only hurts the others. Your J♦ has no A♦, K♦ or Q♦ above it: "
            "exposed, it could hand +200 to someone else."
        ),
    ),
    4: Step(
        say=_(
            "The four choices are shown together: only you exposed a card. You hold the 2♠, so "
            "you lead, with any card but your exposed Q♠, which may not open spades while you "
            "have other spades. Lead the 3♦ to help pull out the A♦, K♦ and Q♦ that could "
            "catch your goat."
        ),
        point=("#me-info", "#status"),
        why=_(
            "A low diamond loses safely and makes the high diamonds come out. Your goat is only "
            "safe once A♦, K♦ and Q♦ have been played."
        ),
        after=_("Watch who wins: the highest diamond takes the trick and leads the next one."),
    ),
    9: Step(
        say=_(
            "The player on your left won with the A♦ and now leads the 2♥: hearts may be led at "
            "any time. You must follow suit, and the 5♥ is your only heart, so play it."
        ),
        point=("#trick", "#seat-3"),
        after=_(
            "Hearts cost whoever takes them: 5♥ to 10♥ are −10 each, the 2♥, 3♥ and 4♥ nothing. "
            "Look at the opposite player's score after this trick."
        ),
    ),
    14: Step(
        say=_(
            "Spades are led for the first time, so your exposed Q♠ is dimmed: it may not go "
            "into this trick while you hold other spades. The J♠ is winning; play your 8♠ "
            "under it."
        ),
        point=("#trick", "#me-info"),
        why=_(
            "Any of your spades stays under the J♠. Shed the highest one, the 8♠, and keep the "
            "5♠, 3♠ and 2♠: low spades let you stay under later spade tricks while the pig "
            "waits for its moment."
        ),
    ),
    17: Step(
        say=_(
            "The player on your left leads the 5♦. The K♦ and Q♦ are still out, and either would "
            "catch your goat, so keep the J♦ back and play the 6♦."
        ),
        point=("#trick",),
        why=_(
            "Playing the J♦ now could lose your goat to the K♦ or the Q♦. Any low diamond does "
            "here; keep the goat until no higher diamond is left."
        ),
    ),
    22: Step(
        say=_(
            "Spades have been led once already, so your exposed Q♠ is free now. Drop it under the "
            "K♠ of the player on your left: tap the Q♠ and play it."
        ),
        point=("#trick", "#seat-3"),
        why=_(
            "With the K♠ on the table, your Q♠ cannot win this trick: it is the moment to pass "
            "the pig on. Keep it, and a later spade trick may leave it with you."
        ),
        after=_(
            "The K♠ takes the trick and the pig with it: −200 for the player on your left, "
            "doubled because you exposed it."
        ),
        quiz=Quiz(
            question=_(
                "Spades again, and the player on your left has put down the K♠. Which of your "
                "spades should you play?"
            ),
            choices=(("2S",), ("QS",), ("5S",)),
            answer=1,
            right=_(
                "Right: the Q♠ is lower than the K♠, so the pig goes to whoever wins the "
                "trick, not to you."
            ),
            wrong=_(
                "A small spade keeps the pig in your hand. Under the K♠ your Q♠ cannot win: "
                "get rid of it now."
            ),
        ),
    ),
    25: Step(
        say=_(
            "The player on your left won the pig and now leads the Q♦, which beats your goat. "
            "Play the 8♦ under it and keep the J♦."
        ),
        point=("#trick", "#seat-3"),
        why=_("The J♦ would lose to the Q♦ and hand over your goat. Play a low diamond."),
        after=_(
            "Players without diamonds may throw any card: watch the hearts land on the winner."
        ),
    ),
    29: Step(
        say=_(
            "Now the K♦, the last diamond that could beat your goat. Play the 7♦ under it: after "
            "this trick your J♦ is the only diamond left."
        ),
        point=("#trick",),
        why=_(
            "The J♦ would lose to the K♦. Keep it one more trick, and nothing can beat it any more."
        ),
    ),
    33: Step(
        say=_(
            "The player on your left leads the 8♣. The 10♣, the transformer, is still out: it "
            "doubles the point cards of whoever takes it. Play the 4♣ and let someone else win "
            "this club trick."
        ),
        point=("#trick",),
        why=_(
            "The K♣ would probably win the trick and everything dropped on it. Stay low and "
            "keep the K♣ for later."
        ),
    ),
    38: Step(
        say=_(
            "The opposite player leads the 2♣, and the K♣ is your only club, so you must play it. "
            "The A♣ fell last trick, so your K♣ will win."
        ),
        point=("#trick",),
        after=_("You win the trick without a single point card, and you lead the next one."),
    ),
    40: Step(
        say=_(
            "Your lead. Every other diamond has been played, so nothing can beat your J♦: lead "
            "it and the goat is yours, +100."
        ),
        point=("#status",),
        why=_(
            "Take the goat while you have the lead. If you wait, someone else may lead a suit "
            "you lack, and a goat you throw on their trick is theirs."
        ),
        after=_(
            "Nobody can follow diamonds, so the others throw other cards, hearts too, and they "
            "come to you with the trick."
        ),
    ),
    44: Step(
        say=_(
            "The goat is yours, along with the 8♥ and Q♥ thrown on it. The pig is gone, so your "
            "spades are harmless: lead the 2♠ and let someone else win."
        ),
        point=("#me-info",),
        why=_("Any spade will do; the lowest is the surest way to give up the lead."),
        after=_("Watch the 10♣: a player without spades may drop the transformer on this trick."),
    ),
    50: Step(
        say=_(
            "The opposite player took the transformer with the 6♥, so their point cards now "
            "count double, hearts included. You have no clubs, so you may play any card: "
            "play the 5♠."
        ),
        point=("#seat-2", "#trick"),
        why=_("Both of your spades are harmless now; the lesson keeps the 3♠ for the last trick."),
    ),
    54: Step(
        say=_(
            "The last trick: your 3♠ is your last card. The Q♣ wins it, and the 9♥ on it counts "
            "double for the opposite player, who holds the transformer."
        ),
        point=("#trick", "#seat-2"),
        after=_(
            "With the last card the hand is scored: the goat brings you +100 and the 8♥ and Q♥ "
            "cost −40, so +60. The player on your left pays −200 for your exposed pig alone."
        ),
    ),
}

LESSON = Lesson(
    deal=DEAL,
    dealer=None,
    script=SCRIPT,
    steps=STEPS,
    intro=_(
        "Gong Zhu is a trick game for four: follow suit, and the highest card of the suit led "
        "wins the trick. Only 16 cards score: hearts and the pig (Q♠) cost points, the goat "
        "(J♦) earns them, and the transformer (10♣) doubles what its taker collects. Dodge the "
        "pig, catch the goat, and end with the highest total."
    ),
    summary=(
        _("The holder of the 2♠ leads the first trick, with any card."),
        _("Follow suit if you can; the highest card of the suit led wins and leads next."),
        _("Hearts may be led at any time; 5♥ and up cost points, 2♥ to 4♥ nothing."),
        _("The pig (Q♠) costs −100, the goat (J♦) earns +100."),
        _("An exposed card counts double for whoever takes it, whoever exposed it."),
        _(
            "An exposed card may not go into the first trick of its suit while you hold "
            "another card of that suit."
        ),
        _("Drop the pig under a higher spade; keep the goat until no higher diamond is left."),
        _("The transformer (10♣) doubles its taker's other point cards, or scores +50 alone."),
    ),
)
