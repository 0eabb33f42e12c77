"""Learn to play in Chromium: a newcomer starts each game's guided first hand from the lobby as
a guest, in a browser of their own language, and plays it to its end in both languages.

At every one of the learner's steps the guide's highlights (its data-point selectors) must
point at parts of the board that are there and marked; a question is answered wrong first (the
toast says the rule) and then right; a legal move other than the lesson's is made as a person
makes it and explained, not refused bare, with the board left as it was; then the lesson's own
move, as a person makes it. At the end the summary shows what the hand taught, and the lobby
marks the lesson finished.

What each step expects is worked out here, in the test process, from the lesson itself: its
script replayed with the game's engine (the other legal moves), its words in the page's
language (``translation.override``).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.utils import translation
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games import lessons, messages
from games.registry import table_game, table_games
from games.tables.base import Step
from games.tables.common import LEVEL_CHOICES
from tests.e2e.test_gandengyan import skip_deal
from tests.e2e.test_play_together import EDGE, board_ready, version

pytestmark = pytest.mark.once

LANGS = ("en", "de")
LEVEL_NAMES = dict(LEVEL_CHOICES)
LISTED = [g.name for g in table_games() if g.lesson is not None and not g.info.unlisted]

# What is wrong with the guide's highlights now: each selector of its data-point that is not
# a selector, matches nothing, matches nothing shown, or matches an element not marked.
POINTING = """() => {
  const guide = document.getElementById('guide');
  if (!guide) return ['no guide on the page'];
  const bad = [];
  for (const sel of (guide.dataset.point || '').split(' | ').filter(Boolean)) {
    let found;
    try { found = [...document.querySelectorAll(sel)]; }
    catch (e) { bad.push(`${sel}: not a selector`); continue; }
    if (!found.length) { bad.push(`${sel}: matches nothing`); continue; }
    if (!found.some((e) => e.getClientRects().length > 0)) bad.push(`${sel}: nothing shown`);
    const plain = found.filter((e) => !e.classList.contains('is-pointed')).length;
    if (plain) bad.push(`${sel}: ${plain} of ${found.length} not highlighted`);
  }
  return bad;
}"""

# After Play: the move went through (a new version), the page asks which reading is meant
# (chips shown), or the server answered with a toast (a refusal).
PLAYED_ASKED_OR_REFUSED = """(before) => {
  const b = document.getElementById('board');
  if (b && b.dataset.version !== before) return true;
  if (document.querySelector('#toast [data-toast]')) return true;
  const box = document.getElementById('readings');
  return !!box && !box.hidden && box.querySelectorAll('.reading-chip').length > 1;
}"""


# ---------------------------------------------------------------- the lesson, worked out here


@dataclass(frozen=True)
class Due:
    """One of the learner's steps: where it is in the script, its number among the steps, the
    guide's step, the lesson's move there and another legal move (None if it has none)."""

    index: int
    number: int
    step: Step
    move: dict
    other: dict | None


def learner_steps(game: str) -> list[Due]:
    """The learner's steps, found by replaying the lesson's script with the game's engine."""
    gspec = table_game(game)
    lesson, engine = gspec.lesson, gspec.engine
    state = engine.new_match_from_deal(lesson.deal, lesson.dealer, lesson.options, seed=1)
    dues = []
    for index, (seat, action) in enumerate(lesson.script):
        if seat == lessons.LEARNER:
            legal = [engine.read(state, 0, a) for a in engine.legal_actions(state, 0)]
            others = [a for a in legal if not lessons.same_move(a, action)]
            dues.append(Due(index, len(dues) + 1, lesson.steps[index], action, _easiest(others)))
        state = engine.apply(state, seat, action)
    assert dues, f"{game}'s lesson has no step for the learner"
    return dues


def _easiest(others: list[dict]) -> dict | None:
    """Of the other legal moves, a play of cards where there is one (the fewest cards: the
    fewest taps), else the first (a pass, a bid, Gong Zhu's exposure with the fewest cards)."""
    if not others:
        return None
    return min(others, key=lambda a: (a["type"] != "play", len(a.get("cards") or ())))


def words(lang: str, text) -> str:
    """A lesson's text (or the site's) as the page in ``lang`` says it."""
    with translation.override(lang):
        return str(text)


def step_words(lang: str, number: int, count: int) -> str:
    with translation.override(lang):
        return translation.gettext("Step %(n)s of %(count)s") % {"n": number, "count": count}


def refusal_words(lang: str, code: str, game: str, index: int) -> str:
    with translation.override(lang):
        return str(messages.refusal(code, {"game": game, "step": index}, game))


# ---------------------------------------------------------------- a person's moves


def _tap(page, card: str) -> None:
    """Tap a card of the hand at its visible left edge (the cards overlap)."""
    skip_deal(page)
    page.locator(f"#board .hand__card[data-card='{card}']").click(position=EDGE)


def _selected(page, card: str) -> None:
    expect(page.locator(f"#board .hand__card[data-card='{card}']")).to_have_class(
        re.compile(r"\bis-selected\b")
    )


def play_one_card(page, card: str) -> None:
    """Gong Zhu: a tap selects the card, a second tap plays it."""
    btn = page.locator(f"#board .hand__card[data-card='{card}']")
    if "is-selected" not in (btn.get_attribute("class") or ""):
        _tap(page, card)
        _selected(page, card)
    _tap(page, card)


def expose(page, cards: list[str]) -> None:
    """Gong Zhu's exposure: tap the cards to expose (their boxes ticked) and Confirm, or
    "Expose nothing"."""
    if not cards:
        page.get_by_test_id("expose-none").click()
        return
    form = page.locator("#exposure-form")
    for box in form.locator("input[name=cards]").all():
        want = box.get_attribute("value") in cards
        if box.is_checked() != want:
            form.locator(
                f"label.exposure__option:has(input[value='{box.get_attribute('value')}'])"
            ).click()
            expect(box).to_be_checked(checked=want)
    page.get_by_test_id("expose-confirm").click()


def play_cards(page, cards: list[str], combo: dict) -> None:
    """Gan Deng Yan, Dou Dizhu: clear what is selected, tap each card of the play, then Play;
    where the cards read more than one way, the chip of ``combo``'s reading."""
    skip_deal(page)
    clear = page.locator("#board [data-clear]")
    if clear.is_visible():
        clear.click()
    expect(page.locator("#board .hand__card.is-selected")).to_have_count(0)
    for card in cards:
        _tap(page, card)
        _selected(page, card)
    if not _chose_reading(page, combo):
        before = version(page)
        page.get_by_test_id("play").click()
        try:
            page.wait_for_function(PLAYED_ASKED_OR_REFUSED, arg=before, timeout=5000)
        except PlaywrightTimeout:
            return  # no answer: the caller's check says what the page shows
        if version(page) == before and not page.locator("#toast [data-toast]").count():
            assert _chose_reading(page, combo), f"no reading chip for {combo}"


def _chose_reading(page, combo: dict) -> bool:
    """The reading chips are up: tap the one for ``combo`` (False: no chips shown)."""
    chips = page.locator("#readings:not([hidden]) .reading-chip")
    if chips.count() < 2:
        return False
    for chip in chips.all():
        said = json.loads(chip.get_attribute("data-combo"))
        if all(said.get(k) == combo.get(k) for k in ("kind", "low", "high")):
            chip.click()
            return True
    raise AssertionError(f"none of the reading chips is {combo}")


def make_move(page, move: dict) -> None:
    """``move`` (as the engine logs it) made through the page, as a person makes it."""
    kind = move["type"]
    if kind == "expose":
        expose(page, move["cards"])
    elif kind == "bid":
        page.get_by_test_id(f"bid-{move['value']}").click()
    elif kind == "pass":
        skip_deal(page)
        page.get_by_test_id("pass").click()
    elif kind == "play" and "card" in move:
        play_one_card(page, move["card"])
    elif kind == "play":
        play_cards(page, move["cards"], move["combo"])
    else:
        raise AssertionError(f"no person's way to make {move}")


def ready_for(page, move: dict) -> None:
    """Wait until the page offers what ``move`` needs (the control, the cards playable)."""
    kind = move["type"]
    if kind == "expose":
        expect(page.locator("#exposure-form")).to_be_visible()
    elif kind == "bid":
        expect(page.get_by_test_id(f"bid-{move['value']}")).to_be_visible()
    elif kind == "pass":
        expect(page.get_by_test_id("pass")).to_be_visible()
    else:
        expect(page.locator("#board.is-my-turn")).to_have_count(1)
        for card in move.get("cards") or [move["card"]]:
            expect(page.locator(f"#board .hand__card[data-card='{card}']")).to_be_visible()


def moved_on(page, before: str, what: str) -> None:
    """The move went through: the board's version changed (else what the toast says)."""
    try:
        expect(page.locator("#board")).not_to_have_attribute("data-version", before)
    except AssertionError:
        toast = page.locator("#toast").inner_text().strip()
        said = f"the toast says {toast!r}" if toast else "no toast, no new board"
        raise AssertionError(f"{what} did not go through: {said}") from None


# ---------------------------------------------------------------- the checks at a step


def highlights_point_at_the_board(page, where: str) -> None:
    try:
        page.wait_for_function(f"() => ({POINTING})().length === 0", timeout=5000)
    except PlaywrightTimeout:
        bad = page.evaluate(POINTING)
        raise AssertionError(f"{where}: the guide's highlights: {'; '.join(bad)}") from None


def a_step(page, game: str, lang: str, due: Due, count: int) -> None:
    lesson = table_game(game).lesson
    where = f"{game} ({lang}) step {due.number} of {count} (script {due.index})"
    guide = page.locator("#guide")
    # The learner's turn at this step: the guide says so.
    expect(page.locator("#guide.guide--mine [data-testid=guide-step]")).to_have_text(
        step_words(lang, due.number, count)
    )
    if due.number == 1:
        expect(page.get_by_test_id("guide-intro")).to_have_text(words(lang, lesson.intro))
    toast = page.locator("#toast [data-toast]")

    quiz = due.step.quiz
    if quiz is not None:
        asked = page.get_by_test_id("guide-quiz")
        expect(asked).to_be_visible()
        expect(asked).to_contain_text(words(lang, quiz.question))
        expect(guide).to_have_attribute("data-point", "")  # nothing to look at yet
        before = version(page)
        wrong = next(i for i in range(len(quiz.choices)) if i != quiz.answer)
        page.get_by_test_id(f"quiz-choice-{wrong}").click()
        expect(toast, f"{where}: a wrong answer").to_contain_text(words(lang, quiz.wrong))
        assert version(page) == before, f"{where}: a wrong answer moved the board"
        expect(asked).to_be_visible()  # asked again
        page.get_by_test_id(f"quiz-choice-{quiz.answer}").click()
        expect(page.get_by_test_id("guide-right")).to_be_visible()
        expect(page.get_by_test_id("guide-right")).to_contain_text(words(lang, quiz.right))
        expect(asked).to_have_count(0)

    expect(page.get_by_test_id("guide-say")).to_have_text(words(lang, due.step.say))
    expect(guide).to_have_attribute("data-point", " | ".join(lessons.pointed(lesson, due.index)))
    ready_for(page, due.move)
    highlights_point_at_the_board(page, where)

    if due.other is not None:
        # Another legal move, made as a person makes it: explained, and nothing changes.
        said = refusal_words(lang, "lesson_other", game, due.index)
        expect(page.locator("#toast [data-toast]", has_text=said)).to_have_count(0)  # not left over
        ready_for(page, due.other)
        before = version(page)
        make_move(page, due.other)
        expect(toast, f"{where}: the other move {due.other}").to_have_text(said)
        if due.step.why:  # the step's own reason, else the general sentence
            expect(toast).to_contain_text(words(lang, due.step.why))
        assert version(page) == before, f"{where}: the other move {due.other} moved the board"
        expect(page.locator("#guide.guide--mine [data-testid=guide-step]")).to_have_text(
            step_words(lang, due.number, count)
        )
        highlights_point_at_the_board(page, f"{where}, after the other move")

    before = version(page)
    make_move(page, due.move)
    moved_on(page, before, f"{where}: the lesson's move {due.move}")


# ---------------------------------------------------------------- the test


# Each game's lesson in one language, the languages taking turns (CI's time): every word of
# every lesson in both languages is tests/games/test_lessons.py's, through the views.
CELLS = [pytest.param(g, LANGS[i % 2], id=f"{g}-{LANGS[i % 2]}") for i, g in enumerate(LISTED)]


@pytest.mark.parametrize(("game", "lang"), CELLS)
def test_a_newcomer_learns_the_game_from_the_lobby_to_the_lessons_end(
    browser_in, site_url, game, lang
):
    lesson = table_game(game).lesson
    dues = learner_steps(game)
    page = browser_in(lang)

    # A first visit: the lobby offers the lessons first.
    page.goto(f"{site_url}/{lang}/")
    expect(page.get_by_test_id("learn-banner")).to_be_visible()
    page.get_by_test_id(f"learn-first-{game}").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/tables/[0-9a-f-]+/$"))
    board_ready(page)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.get_by_test_id("guide")).to_be_visible()

    for due in dues:
        a_step(page, game, lang, due, len(dues))

    # The end: what the hand showed, the rules, a real hand.
    end = page.get_by_test_id("lesson-end")
    expect(end).to_be_visible()
    expect(end.locator("li")).to_have_text([words(lang, line) for line in lesson.summary])
    expect(page.get_by_test_id("lesson-play-real")).to_be_visible()
    rules = page.get_by_test_id("lesson-rules")
    expect(rules).to_be_visible()
    expect(rules).to_have_attribute("href", re.compile(rf"^/{lang}/.*{game}"))
    expect(page.get_by_test_id("guide-step")).to_have_text(step_words(lang, len(dues), len(dues)))

    # "Play a real hand": a new table at Easy, without a guide.
    lesson_table = page.url
    page.get_by_test_id("lesson-play-real").click()
    expect(page).not_to_have_url(lesson_table)
    expect(page).to_have_url(re.compile(rf"/{lang}/tables/[0-9a-f-]+/$"))
    board_ready(page)
    expect(page.get_by_test_id("guide")).to_have_count(0)
    with translation.override(lang):
        easy = str(LEVEL_NAMES["easy"])
    expect(page.locator("#board [data-testid^=seat-level-]").first).to_have_text(easy)

    # Back in the lobby, the game's card marks the lesson finished.
    page.goto(f"{site_url}/{lang}/")
    expect(page.get_by_test_id(f"lesson-done-{game}")).to_be_visible()


SHOT_SIZES = {
    "desktop": {"width": 1280, "height": 900},
    "phone": {"width": 390, "height": 844},
    "landscape": {"width": 844, "height": 390},
}


@pytest.mark.skipif(not os.environ.get("LESSON_SHOTS"), reason="LESSON_SHOTS=<dir> takes them")
@pytest.mark.parametrize("size", SHOT_SIZES)
@pytest.mark.parametrize("game", LISTED)
def test_screenshots_of_a_lessons_question(browser, site_url, game, size):
    """``LESSON_SHOTS=<dir>``: each game's lesson at its question, and at the step after it,
    on a desktop, an upright phone and a phone on its side (looked at, not compared)."""
    phone = size != "desktop"
    context = browser.new_context(
        viewport=SHOT_SIZES[size], is_mobile=phone, has_touch=phone, locale="en-GB"
    )
    page = context.new_page()
    page.goto(f"{site_url}/en/learn/")
    page.get_by_test_id(f"learn-{game}").click()
    board_ready(page)
    for due in learner_steps(game):
        expect(page.locator("#guide.guide--mine")).to_be_visible()
        if due.step.quiz is not None:
            break
        before = version(page)
        make_move(page, due.move)
        moved_on(page, before, f"{game}: {due.move}")
    folder = Path(os.environ["LESSON_SHOTS"])
    folder.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(folder / f"{game}-{size}-question.png"))
    page.get_by_test_id(f"quiz-choice-{due.step.quiz.answer}").click()
    expect(page.get_by_test_id("guide-right")).to_be_visible()
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(folder / f"{game}-{size}-step.png"), full_page=True)
    context.close()
