"""Tables for people in Chromium: several browser contexts, one person each, at one table.

A host creates the table from the lobby, another person takes a seat by the invitation link
or the short code, the host starts, and each person acts only when their own board says so.
Deadlines (a turn timer, a disconnected person's grace) are moved into the past through the
server's database: the driver's sweep then takes the real path that puts a seat on auto-play.

The screenshots (create form, invitation, waiting room, each person's view, spectator, auto-play)
are taken on request: PEOPLE_SHOTS=1 (into test-artifacts/).
"""

import contextlib
import json
import os
import re
import subprocess
import sys
import uuid

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.e2e.test_gandengyan import code_of, skip_deal
from tests.servers import ROOT
from tests.stacks import postgresql_only

# Cards in a hand overlap: a player taps the visible left edge of a card.
EDGE = {"x": 6, "y": 14}
PASSWORD = "Kartenspiel-2026"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CARD_RE = re.compile(r'data-card="([^"]+)"')
VERSION_RE = re.compile(r'id="board"[^>]*data-version="(\d+)"|data-version="(\d+)"[^>]*id="board"')

# What a page may do now, read in one go from its board: "done" (the hand's or round's
# summary is up), "expose" (Gong Zhu's exposure form), "bid" (Dou Dizhu's bids), "play" (the
# player's turn), or "".
READY = """() => {
  const b = document.getElementById('board');
  if (!b || !b.dataset.synced || b.classList.contains('waiting-room')) return '';
  const shown = e => !!e && e.getClientRects().length > 0;
  if (shown(b.querySelector('.summary__panel'))) return 'done';
  if (shown(b.querySelector('#exposure-form'))) return 'expose';
  if (shown(b.querySelector('[data-testid=bids]'))) return 'bid';
  if (b.classList.contains('is-my-turn')
      && (b.querySelector('.hand__card.is-playable') || shown(b.querySelector('[data-testid=play]'))))
    return 'play';
  return '';
}"""

# The seat this page's board marks as the one to move (-1: the viewer's own), or null: the
# board's opening tag names the seats to move (data-to-move), the viewer's own place its own.
MOVER = """() => {
  const b = document.getElementById('board');
  if (!b) return null;
  const s = (b.dataset.toMove || '').split(' ').find(i => i && b.querySelector('#seat-' + i));
  if (s !== undefined) return parseInt(s, 10);
  return b.querySelector('.me.is-to-move') ? -1 : null;
}"""

# The version, whether a summary is up, the hand and every card code on the board (the rules
# box beside it shows example cards).
SEEN = """() => {
  const b = document.getElementById('board');
  const summary = document.querySelector('.summary__panel');
  return {
    version: b ? b.dataset.version : null,
    done: !!summary && summary.getClientRects().length > 0,
    hand: [...document.querySelectorAll('.hand__card[data-card]')].map(e => e.dataset.card),
    cards: [...document.querySelectorAll('#board [data-card]')].map(e => e.dataset.card),
  };
}"""


# ---------------------------------------------------------------- people and their pages


@pytest.fixture(scope="module", autouse=True)
def guest_allowance(site):
    """Guest accounts are limited per address and hour, and every browser test of the session
    comes from 127.0.0.1: this module's guests start from a fresh count."""
    _shell(
        site[1],
        "from cardsite.accounts.models import RateCounter; "
        "RateCounter.objects.filter(name__startswith='guest:').delete()",
    )


def _shell(env, code: str) -> str:
    """As the ``site_shell`` fixture, for a module-scoped fixture."""
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return result.stdout


@pytest.fixture
def person(browser_in):
    """A new person: their own browser context (cookies, sockets), closed after the test."""
    return lambda viewport=DESKTOP: browser_in(viewport=viewport)


def sign_up(page, site_url, prefix, lang="en"):
    name = f"{prefix}{uuid.uuid4().hex[:6]}"
    page.goto(f"{site_url}/{lang}/accounts/signup/")
    page.fill("#id_username", name)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator("form.stack button[type=submit]").click()
    expect(page.locator(".account-menu summary")).to_contain_text(name)
    return name


def create_table(page, site_url, game, plan, *, timer=0, spectators=False, lang="en", shoot=None):
    """From the lobby's "Play with friends": ``plan`` names each seat after the host's."""
    page.goto(f"{site_url}/{lang}/")
    page.get_by_test_id(f"friends-{game}").click()
    expect(page.get_by_test_id("new-table")).to_be_visible()
    for i, choice in enumerate(plan, start=1):
        page.get_by_test_id(f"seat-choice-{i}").select_option(choice)
    page.locator(f"label:has([data-testid=timer-{timer}])").click()
    expect(page.get_by_test_id(f"timer-{timer}")).to_be_checked()
    if spectators:
        page.get_by_test_id("spectators").check()
    if shoot:
        shoot(page, "new-table")
    page.get_by_test_id("create").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/tables/[0-9a-f-]+/$"))
    expect(page.get_by_test_id("waiting-room")).to_be_visible()
    # The room's controls are the socket's: a choice made before its scripts ran and its
    # socket opened is redrawn away by the first frame (CI's loaded pass, test_csp).
    expect(page.get_by_test_id("live-status")).to_have_attribute("data-state", "online")
    return code_of(page)


def invite_link(page):
    link = page.get_by_test_id("invite-link")
    expect(link).to_have_value(re.compile(r"^http://[^/]+/\w\w/join/[\w-]+/$"))  # absolute
    return link.input_value()


def take_seat(page, link, shoot=None):
    page.goto(link)
    expect(page.get_by_test_id("invitation")).to_be_visible()
    if shoot:
        shoot(page, "invitation")
    page.get_by_test_id("take-seat").click()
    expect(page).to_have_url(re.compile(r"/tables/[0-9a-f-]+/$"))
    expect(page.get_by_test_id("waiting-room")).to_be_visible()


def seat_taken(host, index):
    """The host's waiting room shows the seat taken; the match may start."""
    seat = host.get_by_test_id(f"waiting-seat-{index}")
    expect(seat).not_to_have_class(re.compile(r"\bis-open\b"))
    expect(seat.locator(".waiting-seat__name")).not_to_be_empty()
    expect(seat.locator(".presence--connected")).to_be_visible()
    expect(host.get_by_test_id("start-match")).to_be_enabled()


def start(host, *others):
    """The host starts: every page of the table reloads itself into the game's board."""
    host.get_by_test_id("start-match").click()
    for page in (host, *others):
        board_ready(page)


def board_ready(page):
    expect(page.locator(".table-page:not([data-waiting]) #board[data-synced]")).to_be_attached(
        timeout=15_000
    )
    expect(page.locator("#board.waiting-room")).to_have_count(0)


def version(page):
    return page.locator("#board").get_attribute("data-version")


def seen(page):
    return page.evaluate(SEEN)


def fewer_cards(page, n):
    # A function, not an expression: Playwright evaluates an expression with eval, which the
    # page's Content-Security-Policy refuses.
    page.wait_for_function(f"() => document.querySelectorAll('.hand__card').length < {n}")


def shell_table(site_shell, code, statement):
    """Run ``statement`` with ``t`` the table, ``past`` a moment ago and ``Table``/``Seat``."""
    return site_shell(
        "from datetime import timedelta; from django.utils import timezone; "
        "from games.models import Seat, Table; "
        f"t = Table.objects.get(code='{code}'); past = timezone.now() - timedelta(seconds=1); "
        + statement
    )


def expire_turn(site_shell, code):
    """The "short timer": the turn's deadline passed a moment ago (the driver's sweep acts)."""
    shell_table(
        site_shell,
        code,
        "Table.objects.filter(pk=t.pk, turn_due_at__isnull=False)"
        ".update(turn_due_at=past, timer_due_at=past)",
    )


# ---------------------------------------------------------------- playing


def gongzhu_act(page, what):
    if what == "expose":
        # Two people deciding at once: the later decision may be refused as stale (the other's
        # bumped the version); the page then sends it again by itself on the new board, so
        # one click is all a player ever needs.
        page.get_by_test_id("expose-none").click()
        expect(page.locator("#exposure-form")).to_have_count(0)
        return
    before = version(page)
    card = page.locator(".hand__card.is-playable").first
    code = card.get_attribute("data-card")
    card.click(position=EDGE)  # selects it
    page.locator(f".hand__card[data-card='{code}']").click(position=EDGE)  # a second tap plays
    _moved(page, before)


def gandengyan_act(page, what):
    """Play Hint's choice (Normal's), or pass when it says so."""
    skip_deal(page)
    before = version(page)
    page.get_by_test_id("hint").click()
    try:
        page.wait_for_selector("#board[data-hint]", timeout=5000)
    except PlaywrightTimeout:
        return  # the board was drawn again meanwhile: the loop looks again
    try:
        if page.locator("#board").get_attribute("data-hint") == "pass":
            page.get_by_test_id("pass").click(timeout=3000)
        else:
            page.get_by_test_id("play").click(timeout=3000)  # enabled once the hint selected
            chips = page.get_by_test_id("reading")
            if chips.count() > 1:
                chips.first.click(timeout=3000)
    except PlaywrightTimeout:
        return  # the board was drawn again meanwhile: the loop looks again
    _moved(page, before)


def _moved(page, before):
    """The move went through: the board's version changed. A board drawn again at the same
    version meanwhile (someone's socket opened or closed) may have dropped the selection: the
    loop then finds it still the player's turn and plays again."""
    with contextlib.suppress(AssertionError):
        expect(page.locator("#board")).not_to_have_attribute("data-version", before, timeout=4000)


def play_together(people, act, check=None, until=None, limit=400):
    """Every page plays its own seat until each shows the summary (or ``until()`` holds).

    ``people``: {seat index: page}. A page acts only when its own board says it may; while
    nobody may, the page of the seat the newest board marks to move is waited on first.
    ``check(states)`` runs after every look at the pages."""
    for _ in range(limit):
        states = {i: p.evaluate(READY) for i, p in people.items()}
        if check:
            check(states)
        if until is not None and until():
            return states
        if until is None and all(s == "done" for s in states.values()):
            return states
        acting = [i for i, s in states.items() if s in ("play", "bid", "expose")]
        for i in acting:
            act(people[i], states[i])
        if not acting:
            _wait_for_someone(people, states)
    raise AssertionError("the hand did not end")


def _wait_for_someone(people, states):
    """Wait for a page that may act: first the page of the seat to move as the newest board
    (the highest version; another page may not have its frame yet) says."""
    looks = {i: p.evaluate(f"() => [document.getElementById('board').dataset.version, ({MOVER})()]")
             for i, p in people.items()}  # fmt: skip
    newest = max(looks, key=lambda i: int(looks[i][0] or 0))
    mover = looks[newest][1]
    mover = newest if mover == -1 else mover
    order = sorted((i for i in people if states[i] != "done"), key=lambda i: i != mover)
    for i in order:
        try:
            people[i].wait_for_function(
                f"() => ({READY})() !== ''", timeout=10_000 if i == mover else 1_000
            )
            return
        except PlaywrightTimeout:
            continue


def hands_apart(people, counter):
    """A check for play_together: no page shows a card of another person's hand. Compared
    only when the pages show the same version (a page a move ahead may show a card the other
    page still draws in its hand)."""

    def check(states):
        looks = {i: seen(p) for i, p in people.items()}
        if len({v["version"] for v in looks.values()}) != 1 or any(
            v["done"] for v in looks.values()
        ):
            return  # a summary may show every hand that is left
        for i, mine in looks.items():
            for j, other in looks.items():
                if i != j:
                    assert not set(mine["cards"]) & set(other["hand"]), (i, j)
        counter.append(looks)

    return check


def shots_for(artifacts_dir, lang):
    """Screenshot a page at the desktop and the phone size (then back to the desktop)."""
    taken = []

    def shoot(page, name):
        for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(size)
            path = os.path.join(artifacts_dir, f"people-{name}-{lang}-{label}.png")
            page.screenshot(path=path, full_page=True)
            taken.append(path)

    shoot.taken = taken
    return shoot


# ---------------------------------------------------------------- the tests


# On the PostgreSQL + Redis pass only: the first pass plays a hand of two people at one table
# in every game already (test_journeys.py's two people), and CI keeps within its 20 minutes.
@postgresql_only("run on the PostgreSQL + Redis pass (CI's time)")
def test_two_people_and_two_computers_play_a_gong_zhu_hand(person, site_url):
    a, b = person(), person()
    create_table(a, site_url, "gongzhu", ["person", "normal", "normal"])
    link = invite_link(a)
    expect(a.get_by_test_id("short-code")).to_have_text(re.compile(r"^\w{3} \w{3}$"))
    expect(a.get_by_test_id("start-match")).to_be_disabled()  # seat 2 waits for its person
    take_seat(b, link)
    expect(b.get_by_test_id("start-match")).to_have_count(0)  # only the host starts
    seat_taken(a, 1)
    start(a, b)

    looks = []
    people = {0: a, 1: b}
    play_together(people, gongzhu_act, check=hands_apart(people, looks))
    assert len(looks) >= 10  # compared at many moments of the hand, not once
    for page in (a, b):
        expect(page.locator(".summary__panel")).to_contain_text("Hand 1")
        expect(page.locator(".hand__card")).to_have_count(0)
    # Each saw the other's seat connected throughout.
    expect(a.get_by_test_id("presence-1")).to_have_class(re.compile("presence--connected"))
    expect(b.get_by_test_id("presence-0")).to_have_class(re.compile("presence--connected"))


def test_an_exposure_decided_on_a_page_a_moment_behind_counts_with_one_click(
    person, site_url, site_shell
):
    """Another player's decision moved the table on without this page having heard (its frame
    is still on the way): the click is refused as stale, and the page sends it again itself."""
    a, b = person(), person()
    code = create_table(a, site_url, "gongzhu", ["person", "normal", "normal"])
    take_seat(b, invite_link(a))
    seat_taken(a, 1)
    start(a, b)
    for page in (a, b):
        if page.evaluate(READY) != "expose":
            pytest.skip("this deal gave one of them nothing to expose")
    shell_table(site_shell, code, "Table.objects.filter(pk=t.pk).update(version=t.version + 1)")
    before = version(b)
    b.get_by_test_id("expose-none").click()
    expect(b.locator("#exposure-form")).to_have_count(0)
    assert version(b) != before
    a.get_by_test_id("expose-none").click()
    expect(a.locator("#exposure-form")).to_have_count(0)


# Once: people at one table on PostgreSQL + Redis are the Gong Zhu hand's (the layer and the
# database do not know which game a table plays).
@pytest.mark.once
def test_two_people_join_by_short_code_and_play_gan_deng_yan_apart(person, site_url):
    a, b = person(), person()
    create_table(a, site_url, "gandengyan", ["person", "none", "none"])
    short = a.get_by_test_id("short-code").inner_text()
    # B joins with the short code in the lobby, spelled as read out (lower case, a space).
    b.goto(f"{site_url}/en/")
    b.get_by_test_id("join-code").fill(short.lower())
    b.get_by_test_id("join").click()
    expect(b.get_by_test_id("invitation")).to_be_visible()
    b.get_by_test_id("take-seat").click()
    expect(b.get_by_test_id("waiting-room")).to_be_visible()
    seat_taken(a, 1)
    start(a, b)
    expect(a.locator(".seat")).to_have_count(1)  # two seats: one opponent

    # Each plays three turns (a whole round of two people is the two-people journey's, in
    # test_journeys, with its settlement): neither page ever shows the other's cards.
    looks = []
    people = {0: a, 1: b}
    turns = {0: 0, 1: 0}

    def act(page, what):
        turns[next(i for i, p in people.items() if p is page)] += 1
        gandengyan_act(page, what)

    def three_turns_each():
        over = any(p.get_by_test_id("settlement").count() for p in people.values())
        return over or min(turns.values()) >= 3

    play_together(people, act, check=hands_apart(people, looks), until=three_turns_each)
    assert looks  # compared while they played


def test_a_guest_accepts_an_invitation_signs_up_and_finds_the_match(person, site_url):
    a, b = person(), person()
    host = sign_up(a, site_url, "host")
    create_table(a, site_url, "gongzhu", ["person", "easy", "easy"])
    link = invite_link(a)

    b.goto(link)
    expect(b.get_by_test_id("invitation")).to_contain_text(host)
    expect(b.locator(".account-menu")).to_have_count(0)  # no account yet
    b.get_by_test_id("take-seat").click()
    expect(b.get_by_test_id("waiting-room")).to_be_visible()
    expect(b.locator(".account-menu summary")).to_contain_text("Guest")
    seat_taken(a, 1)
    start(a, b)
    play_together({0: a, 1: b}, gongzhu_act, until=lambda: len(seen(b)["hand"]) < 13)

    # The header's sign-up link: the guest's seat becomes the new account's.
    b.locator("header a[href$='/accounts/signup/']").first.click()
    expect(b).to_have_url(re.compile(r"/accounts/signup/"))
    name = f"guest{uuid.uuid4().hex[:6]}"
    b.fill("#id_username", name)
    b.fill("#id_password1", PASSWORD)
    b.fill("#id_password2", PASSWORD)
    b.locator("form.stack button[type=submit]").click()
    expect(b.locator(".account-menu summary")).to_contain_text(name)
    b.goto(f"{site_url}/en/matches/")
    row = b.locator(".list-table tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Gong Zhu")
    expect(row).to_contain_text(host)
    expect(row).to_contain_text("running")
    row.get_by_role("link", name="Continue").click()
    board_ready(b)
    expect(b.locator(".hand__card").first).to_be_visible()  # the seat is still theirs
    # The host's board now names the new account in that seat.
    expect(a.locator(".seat[data-seat='1'] .seat__name")).to_have_text(name)


# How the seat is taken back is the page's (a button, a tap on a card, a reload); the
# timer, the auto-play and the seat given back are the same each time: the page's other
# ways on the first pass only (CI's time).
@pytest.mark.parametrize(
    "back",
    [
        "button",
        pytest.param("touch", marks=pytest.mark.once),
        pytest.param("reload", marks=pytest.mark.once),
    ],
)
def test_a_turn_times_out_and_the_player_takes_the_seat_back(person, site_url, site_shell, back):
    """Back from auto-play with the badge's button, by touching the page anywhere, or by
    opening it again: whichever, the seat is theirs again."""
    a, b = person(), person()
    code = create_table(a, site_url, "gongzhu", ["person", "normal", "normal"], timer=30)
    take_seat(b, invite_link(a))
    seat_taken(a, 1)
    start(a, b)
    people = {0: a, 1: b}
    # Past the exposures, to the first person to play.
    play_together(
        people,
        lambda p, what: gongzhu_act(p, what) if what == "expose" else None,
        until=lambda: any(p.evaluate(READY) == "play" for p in people.values()),
    )
    late = next(i for i, p in people.items() if p.evaluate(READY) == "play")
    other = 1 - late
    slow, watcher = people[late], people[other]
    expect(slow.get_by_test_id("turn-timer")).to_have_text(re.compile(r"^0:[0-3]\d$"))
    expect(watcher.get_by_test_id("turn-timer")).to_have_count(0)  # not their turn
    cards = len(seen(slow)["hand"])

    expire_turn(site_shell, code)
    expect(watcher.get_by_test_id(f"seat-level-{late}")).to_have_text("auto-play")
    expect(slow.get_by_test_id("take-back")).to_be_visible()
    expect(slow.get_by_test_id("autoplay-mine")).to_be_visible()
    fewer_cards(slow, cards)  # a computer played for them

    if back == "button":
        slow.get_by_test_id("take-back").click()
    elif back == "touch":
        slow.get_by_test_id("status").click()  # anywhere but the button
    else:
        slow.reload()
        board_ready(slow)
    expect(slow.get_by_test_id("take-back")).to_have_count(0)
    expect(watcher.get_by_test_id(f"seat-level-{late}")).to_have_count(0)
    # They play on: their next card is their own move.
    left = len(seen(slow)["hand"])
    play_together(people, gongzhu_act, until=lambda: len(seen(slow)["hand"]) < left)
    expect(slow.get_by_test_id("take-back")).to_have_count(0)
    expect(watcher.get_by_test_id(f"seat-level-{late}")).to_have_count(0)


def test_a_spectator_never_sees_a_card_before_it_is_played(person, site_url, site_shell):
    a, c = person(), person()
    sign_up(c, site_url, "watch")
    code = create_table(a, site_url, "gongzhu", ["normal", "normal", "normal"], spectators=True)
    frames = []
    c.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    c.goto(a.url)
    expect(c.get_by_test_id("waiting-room")).to_be_visible()
    expect(c.get_by_test_id("invite")).to_have_count(0)  # a watcher does not invite
    expect(c.get_by_test_id("start-match")).to_have_count(0)
    start(a, c)
    expect(a.get_by_test_id("watchers")).to_have_text("1 watching")
    expect(c.locator(".me__name")).to_contain_text("Watching from")

    # The watcher reloads: their socket closing and opening draws A's board again at the same
    # version, and the card A had selected stays selected (static/js/people.js).
    play_together({0: a}, gongzhu_act, until=lambda: a.evaluate(READY) == "play")
    card = a.locator(".hand__card.is-playable").first
    picked = card.get_attribute("data-card")
    card.click(position=EDGE)
    expect(a.locator(".hand__card.is-selected")).to_have_count(1)
    a.evaluate("() => { document.getElementById('board').dataset.drawn = 'before'; }")
    before = version(a)
    c.reload()
    expect(a.locator("#board[data-drawn]")).to_have_count(0)  # drawn again
    assert version(a) == before
    expect(a.locator(f".hand__card.is-selected[data-card='{picked}']")).to_have_count(1)
    expect(a.get_by_test_id("watchers")).to_have_text("1 watching")
    a.get_by_test_id("play").click()
    expect(a.locator("#board")).not_to_have_attribute("data-version", before)

    def check(states):
        # A's hand is not played yet: none of it is on the watcher's page, at any moment.
        assert not set(seen(c)["cards"]) & set(seen(a)["hand"])
        assert c.locator(".hand__card").count() == 0

    play_together({0: a}, gongzhu_act, check=check)
    expect(c.locator(".summary__panel")).to_be_visible()
    expect(c.locator(".hand__card")).to_have_count(0)
    expect(c.get_by_test_id("take-back")).to_have_count(0)

    # Every card a frame showed the watcher was played (or exposed) by that frame's version.
    log = json.loads(
        shell_table(
            site_shell,
            code,
            "import json; print(json.dumps([[x.seq, x.action] for x in t.log.order_by('seq')]))",
        ).splitlines()[-1]
    )
    public_at = {}
    for seq, action in log:
        for card in _cards_in(action):
            public_at.setdefault(card, seq)
    assert len(public_at) == 52
    texts = [f if isinstance(f, str) else f.decode() for f in frames]
    boards = 0
    for text in texts:
        assert "hand__card" not in text
        shown = set(CARD_RE.findall(text))
        found = VERSION_RE.search(text)
        if not found:
            assert not shown, text[:300]
            continue
        boards += 1
        at = int(found.group(1) or found.group(2))
        early = {card for card in shown if public_at.get(card, 10**9) > at}
        assert not early, (at, early)
    assert boards >= 5
    assert sum(len(CARD_RE.findall(t)) for t in texts) >= 52  # the check saw the cards played


def _cards_in(action):
    if isinstance(action, str):
        return [action] if re.fullmatch(r"[2-9TJQKA][SHDC]", action) else []
    if isinstance(action, dict):
        return [c for v in action.values() for c in _cards_in(v)]
    if isinstance(action, list):
        return [c for v in action for c in _cards_in(v)]
    return []


def test_a_player_closes_the_browser_and_the_table_goes_on(person, site_url, site_shell):
    a, b = person(), person()
    code = create_table(a, site_url, "gongzhu", ["person", "normal", "normal"])
    take_seat(b, invite_link(a))
    seat_taken(a, 1)
    start(a, b)
    people = {0: a, 1: b}
    # Both play until it is A's turn; then B closes the browser.
    play_together(people, gongzhu_act, until=lambda: a.evaluate(READY) == "play")
    expect(a.get_by_test_id("presence-1")).to_have_class(re.compile("presence--connected"))
    b.context.close()
    expect(a.get_by_test_id("presence-1")).to_have_class(re.compile("presence--reconnecting"))
    # The table goes on: A plays; within the grace B's seat is still B's (no computer for it).
    cards = len(seen(a)["hand"])
    gongzhu_act(a, "play")
    fewer_cards(a, cards)
    expect(a.get_by_test_id("seat-level-1")).to_have_count(0)
    expect(a.get_by_test_id("presence-1")).to_have_class(re.compile("presence--reconnecting"))

    # The grace runs out (moved into the past): the driver's sweep puts the seat on auto-play.
    shell_table(
        site_shell,
        code,
        "Seat.objects.filter(table=t, index=1).update(away_due_at=past); "
        "Table.objects.filter(pk=t.pk).update(timer_due_at=past)",
    )
    expect(a.get_by_test_id("seat-level-1")).to_have_text("auto-play")
    expect(a.get_by_test_id("presence-1")).to_have_class(re.compile("presence--away"))
    play_together({0: a}, gongzhu_act)
    expect(a.locator(".summary__panel")).to_contain_text("Hand 1")


@pytest.mark.skipif(
    not os.environ.get("PEOPLE_SHOTS"), reason="screenshots on request (PEOPLE_SHOTS=1)"
)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_screenshots(person, site_url, site_shell, artifacts_dir, lang):
    shoot = shots_for(artifacts_dir, lang)
    a, b, c = person(), person(), person()
    code = create_table(
        a,
        site_url,
        "gongzhu",
        ["person", "normal", "normal"],
        timer=30,
        spectators=True,
        lang=lang,
        shoot=shoot,
    )
    shoot(a, "waiting-room-host")
    take_seat(b, invite_link(a), shoot=shoot)
    seat_taken(a, 1)
    shoot(a, "waiting-room-ready")
    sign_up(c, site_url, "watch", lang=lang)
    c.goto(a.url)
    expect(c.get_by_test_id("waiting-room")).to_be_visible()
    start(a, b, c)
    expect(a.get_by_test_id("watchers")).to_be_visible()

    people = {0: a, 1: b}
    play_together(
        people,
        lambda p, what: gongzhu_act(p, what) if what == "expose" else None,
        until=lambda: any(p.evaluate(READY) == "play" for p in people.values()),
    )
    shoot(a, "two-people-host")
    shoot(b, "two-people-guest")
    shoot(c, "spectator")

    late = next(i for i, p in people.items() if p.evaluate(READY) == "play")
    expire_turn(site_shell, code)
    expect(people[1 - late].get_by_test_id(f"seat-level-{late}")).to_be_visible()
    expect(people[late].get_by_test_id("take-back")).to_be_visible()
    shoot(people[late], "autoplay-mine")
    shoot(people[1 - late], "autoplay-other")
    assert len(shoot.taken) == 18


def test_play_again_together_is_one_click_each(person, site_url, site_shell):
    a, b = person(), person()
    host, guest = sign_up(a, site_url, "host"), sign_up(b, site_url, "guest")
    code = create_table(a, site_url, "gongzhu", ["person", "normal", "normal"])
    take_seat(b, invite_link(a))
    seat_taken(a, 1)
    start(a, b)
    # The match ends (written through the server's database); each person sees its end.
    shell_table(
        site_shell,
        code,
        "Table.objects.filter(pk=t.pk).update(status='finished', finished_at=timezone.now())",
    )
    for page in (a, b):
        page.reload()
        expect(page.get_by_test_id("again-together")).to_be_visible()

    a.get_by_test_id("again-together").click()  # A's one click: to the new table, seated
    expect(a).not_to_have_url(re.compile(code))
    expect(a.get_by_test_id("waiting-room")).to_be_visible()
    expect(a.get_by_test_id("waiting-seat-1")).to_contain_text(f"kept for {guest}")
    expect(a.get_by_test_id("start-match")).to_be_disabled()

    # B's page of the last match shows the offer as it happens; one click seats B there.
    expect(b.get_by_test_id("again-offer")).to_contain_text(f"{host} asks for another match")
    b.get_by_test_id("accept-again").click()
    expect(b).to_have_url(a.url)
    expect(b.get_by_test_id("waiting-room")).to_be_visible()
    seat_taken(a, 1)
    expect(a.get_by_test_id("waiting-seat-1")).to_contain_text(guest)
    start(a, b)
    expect(a.locator(".hand__card").first).to_be_visible()
    expect(b.locator(".hand__card").first).to_be_visible()
