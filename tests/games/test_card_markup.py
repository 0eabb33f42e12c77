"""The card tags: a card's markup follows from its code, its flags and the language."""

from django.template import Context, Template
from django.utils import translation

from games.tables.common import Card, HandCard

HAND = Template(
    "{% load cards %}{% for c in hand %}{% hand_card c new_label %}{% endfor %}"
    "|{% table_card card %}|{% table_card card small=True labelled=False %}"
)


def render(hand, new_label="just drawn", card=None):
    return HAND.render(Context({"hand": hand, "new_label": new_label, "card": card or hand[0]}))


def test_a_hand_card_is_a_button_named_by_the_card_in_its_own_region():
    html = render([HandCard("QS"), HandCard("TH", selected=True), HandCard("RJ", new=True)])
    hand = html.split("|")[0]
    assert hand == (
        '<!--region hand-QS--><button type="button" id="hand-QS" class="hand__card" '
        'data-card="QS" role="option" aria-selected="false"><span class="card suit-S" '
        'data-card="QS" aria-hidden="true"><span class="card__idx">Q<br>♠</span>'
        '<span class="card__pip">♠</span></span><span class="sr-only">queen of spades</span>'
        '<span class="sr-only" data-why></span></button><!--/region hand-QS-->'
        '<!--region hand-TH--><button type="button" id="hand-TH" class="hand__card is-selected" '
        'data-card="TH" role="option" aria-selected="true"><span class="card suit-H" '
        'data-card="TH" aria-hidden="true"><span class="card__idx">10<br>♥</span>'
        '<span class="card__pip">♥</span></span><span class="sr-only">10 of hearts</span>'
        '<span class="sr-only" data-why></span></button><!--/region hand-TH-->'
        '<!--region hand-RJ--><button type="button" id="hand-RJ" class="hand__card is-new" '
        'data-card="RJ" role="option" aria-selected="false"><span class="card" data-card="RJ" '
        'aria-hidden="true"><span class="card__idx">★<br></span><span class="card__pip">'
        '</span></span><span class="sr-only">red joker – just drawn</span>'
        '<span class="sr-only" data-why></span></button><!--/region hand-RJ-->'
    )


def test_the_markup_follows_the_language_and_escapes_the_words():
    with translation.override("de"):
        german = render([HandCard("QS", new=True)], new_label="<neu>", card=Card("QS"))
    hand, labelled, plain = german.split("|")
    assert 'aria-label="Pik-Dame"' in labelled
    assert "Pik-Dame – &lt;neu&gt;</span>" in hand
    assert "card--small" in plain and "aria-label" not in plain
    with translation.override("en"):
        english = render([HandCard("QS", new=True)], new_label="<new>", card=Card("QS"))
    assert "queen of spades – &lt;new&gt;" in english and 'aria-label="queen of spades"' in english
