"""Toy Trick's guided hand: the machinery's lessons tried on the game for the tests (its words
stay English, as every word of this game does)."""

from games.tables.base import Lesson, Quiz, Step

LESSON = Lesson(
    deal={
        "hands": [["KH", "JH", "9H"], ["AS", "QH", "TH"]],
        "stock": ["TS", "9S", "QS", "JS", "AH", "KS"],
    },
    dealer=0,
    script=(
        (0, {"type": "play", "card": "KH"}),
        (1, {"type": "play", "card": "QH"}),
        (1, {"type": "play", "card": "TH"}),
        (0, {"type": "play", "card": "JH"}),
        (0, {"type": "play", "card": "9H"}),
        (1, {"type": "play", "card": "AS"}),
    ),
    steps={
        0: Step(
            say="You lead the first trick. Play your king of hearts.",
            point=("#trick",),
            why="The king is your highest card: it wins the trick.",
            after="Your opponent follows.",
        ),
        3: Step(
            say="Follow with the jack of hearts.",
            quiz=Quiz(
                question="Which card may you play on the 10 of hearts?",
                choices=(("AS",), ("JH",)),
                answer=1,
                right="Yes: you follow suit while you can.",
                wrong="You hold hearts, so you must play a heart.",
            ),
            why="The jack beats the 10.",
        ),
        4: Step(say="Lead your last card, the 9 of hearts."),
    },
    intro="Three cards each: follow suit, and each trick is a point.",
    summary=("Follow suit while you can.", "The highest card of the suit led wins the trick."),
)
