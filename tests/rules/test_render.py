"""Markdown from the admin becomes safe HTML; card codes become small cards."""

import pytest
from django.utils import translation

from cardsite.rules.render import card_label, render, render_inline


@pytest.mark.parametrize(
    "evil",
    [
        "<script>alert(1)</script>",
        '<p onclick="alert(1)">hi</p>',
        '<img src="x" onerror="alert(1)">',
        "[click](javascript:alert(1))",
        '<a href="javascript:alert(1)">click</a>',
        '<a href="JaVaScRiPt:alert(1)" onmouseover="alert(1)">click</a>',
        '<svg onload="alert(1)"></svg>',
        '<iframe src="https://example.org"></iframe>',
        '<div style="background:url(javascript:alert(1))">x</div>',
    ],
)
def test_it_strips_scripts_event_attributes_and_javascript_links(evil):
    html = render(f"Before\n\n{evil}\n\nAfter").html.lower()
    assert "<script" not in html
    assert "alert(1)</" not in html or "<script" not in html
    assert "javascript:" not in html
    for attr in ("onclick", "onerror", "onload", "onmouseover", "style="):
        assert attr not in html
    assert "<iframe" not in html and "<svg" not in html and "<img" not in html
    assert "before" in html and "after" in html


def test_it_strips_scripts_inside_examples_and_key_points():
    body = '::: example gongzhu taken="QS" score="-100"\n<b onclick="x()">Pig</b> <script>x()</script>\n:::'
    html = render(body).html
    assert "onclick" not in html and "<script" not in html
    assert "onclick" not in render_inline('<a href="#" onclick="x()">a</a> [QS]')
    assert "javascript:" not in render_inline("[a](javascript:alert(1))")


def test_it_keeps_ordinary_markdown():
    html = render(
        "## Deal\n\n**bold** and *em*, [link](https://example.org)\n\n| a | b |\n| - | - |\n| 1 | 2 |",
        toc=True,
    ).html
    assert "<strong>bold</strong>" in html and "<em>em</em>" in html
    assert '<a href="https://example.org" rel="noopener noreferrer">link</a>' in html
    assert "<table>" in html and "<td>1</td>" in html
    assert '<h2 id="deal">Deal</h2>' in html


def test_card_codes_become_labelled_cards_with_suit_colours():
    with translation.override("en"):
        html = render("The pig [QS], the heart ace [AH] and [BJ] [RJ].").html
    assert 'data-card="QS"' in html and 'aria-label="queen of spades"' in html
    assert 'class="pc pc--black" data-card="QS"' in html
    assert 'class="pc pc--red" data-card="AH"' in html
    assert 'data-card="BJ"' in html and 'aria-label="black joker"' in html
    assert "pc--red pc--joker" in html
    assert "[QS]" not in html


def test_card_labels_follow_the_language():
    with translation.override("de"):
        assert card_label("QS") == "Pik-Dame"
        assert card_label("TC") == "Kreuz-10"
        assert card_label("RJ") == "roter Joker"
    with translation.override("en"):
        assert card_label("TC") == "10 of clubs"


def test_card_codes_in_code_spans_links_and_unknown_codes_stay_text():
    html = render("Write `[QS]` for the pig; [1X] is nothing; [see](https://example.org/[QS])").html
    assert "<code>[QS]</code>" in html
    assert "[1X]" in html
    assert 'href="https://example.org/[QS]"' in html or "example.org/%5BQS%5D" in html


def test_neighbouring_cards_stay_together():
    html = render("[6S] [6H] [6D] [6C] beats [KS] [KH] [KD].").html
    assert html.count("pc-run pc-run--nowrap") == 2


def test_a_broken_example_shows_an_error_instead_of_failing():
    result = render('::: example gongzhu taken="QX" score="-100"\nOops\n:::')
    assert result.errors and "example-error" in result.html
    result = render('::: example chess taken="QS" score="1"\nOops\n:::')
    assert result.errors


def test_examples_carry_machine_readable_data():
    body = (
        '::: example gongzhu taken="TC QS" exposed="TC" score="-400"\nText [TC].\n:::\n\n'
        '::: example gandengyan winner="0" bombs="0" hands="|4D 9S" played="1 1" scores="2 -2"\nT\n:::\n\n'
        '::: example doudizhu bid="3" bombs="2" spring="no" anti-spring="no" stake="12" cards="7S 7H 7D 7C|BJ RJ"\nT\n:::'
    )
    result = render(body)
    html = result.html
    assert result.examples == 3 and not result.errors
    assert 'data-game="gongzhu" data-taken="TC QS" data-exposed="TC" data-score="-400"' in html
    assert 'data-hands="|4D 9S"' in html and 'data-scores="2 -2"' in html
    assert (
        'data-bid="3"' in html
        and 'data-stake="12"' in html
        and 'data-cards="7S 7H 7D 7C|BJ RJ"' in html
    )
    assert "−400" in html  # a real minus sign on the page


def test_placeholders_are_highlighted():
    html = render("Name: ⟨your name⟩ and `⟨code⟩`").html
    assert '<mark class="placeholder">⟨your name⟩</mark>' in html
    assert "<code>⟨code⟩</code>" in html
