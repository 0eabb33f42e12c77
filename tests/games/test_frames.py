"""Frames that carry only what changed (games/frames.py), and the conformance check: a page that
applies them, missing some on the way, always ends up with exactly the board a fresh render
gives – for every game, every seat and a watcher.

The page is modelled here the way the browser applies a message (static/js/table.js and the
htmx ws extension): a patch made against another version is not applied and the page asks
for the whole board; otherwise the board element's attributes are replaced, so are those of
each element the patch names by its opening tag alone, and each element of the message
replaces the element with its id (or gains its children, afterbegin or beforeend).
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.template import engines
from jinja2 import ChoiceLoader, DictLoader

from cardsite.jinja import DRAWN
from games import frames, services, views_live
from games.bench import load
from games.registry import table_game, table_games

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


def top_level(html: str) -> list[tuple[str, str, str | None]]:
    """The top-level elements of a message: (id, html, hx-swap-oob)."""

    class Parser(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=False)
            self.depth, self.found, self.start = 0, [], None

        def handle_starttag(self, tag, attrs):
            if self.depth == 0:
                self.start = (self.getpos(), dict(attrs))
            if tag not in VOID:
                self.depth += 1
            elif self.depth == 0:
                self.found.append((self.start, self.getpos(), tag))

        def handle_endtag(self, tag):
            self.depth -= 1
            if self.depth == 0:
                self.found.append((self.start, self.getpos(), tag))

    parser = Parser()
    parser.feed(html)
    lines = html.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def at(pos):
        return offsets[pos[0] - 1] + pos[1]

    out = []
    for (start, attrs), end, _tag in parser.found:
        begin = at(start)
        finish = html.index(">", at(end)) + 1
        out.append((attrs.get("id"), html[begin:finish], attrs.get("hx-swap-oob")))
    return out


class Page:
    """One browser page's board, as the messages of its socket make it."""

    def __init__(self, resync):
        self.html = ""
        self.resync = resync  # what the page's resync request brings back (a whole board)
        self.resyncs = 0

    @property
    def version(self) -> str | None:
        match = re.search(r'<div id="board"[^>]*\bdata-version="(\d+)"', self.html)
        return match.group(1) if match else None

    def receive(self, message: str) -> None:
        if not message.startswith("<template data-patch"):
            self.html = message
            return
        head, _, body = message.partition("</template>")
        base = re.search(r'data-base="(\d+)"', head).group(1)
        root = re.search(r'<div id="board"[^>]*>', head).group(0)
        parts = top_level(body)
        if base != self.version or any(
            not re.search(rf'\sid="{re.escape(i)}"', self.html) for i, _, _ in parts
        ):
            self.resyncs += 1
            self.receive(self.resync())
            return
        tags = top_level(head.partition(">")[2])[1:]  # after the board: opening tags alone
        if any(not re.search(rf'\sid="{re.escape(i)}"', self.html) for i, _, _ in tags):
            self.resyncs += 1
            self.receive(self.resync())
            return
        self.html = re.sub(r'<div id="board"[^>]*>', lambda m: root, self.html, count=1)
        for ident, tag, _swap in tags:
            old = self._element(ident)
            opening = tag[: tag.index(">") + 1]
            self.html = self.html.replace(old, opening + old[old.index(">") + 1 :], 1)
        for ident, part, swap in parts:
            self.html = self._swap(ident, part, swap)

    def _swap(self, ident: str, part: str, swap: str | None) -> str:
        old = self._element(ident)
        if swap is None:
            return self.html.replace(old, part, 1)
        if swap == "delete":
            return self.html.replace(old, "", 1)
        inner = part[part.index(">") + 1 : part.rindex("</")]
        swap, _, target = swap.partition(":")
        assert target in ("", f"#{ident}"), "a patch names its target by its id"
        if swap == "beforebegin":
            return self.html.replace(old, inner + old, 1)
        head_end, tail = old.index(">") + 1, old.rindex("</")
        grown = (
            old[:head_end] + inner + old[head_end:]
            if swap == "afterbegin"
            else old[:tail] + inner + old[tail:]
        )
        return self.html.replace(old, grown, 1)

    def _element(self, ident: str) -> str:
        found = re.search(rf'\sid="{re.escape(ident)}"', self.html)
        assert found, f"no element {ident}"
        start = self.html.rindex("<", 0, found.start())
        for _i, element, _s in top_level(self.html[start:])[:1]:
            return element
        raise AssertionError(f"no element {ident}")


def test_a_frame_with_the_same_skeleton_becomes_a_patch_of_what_changed():
    board = (
        '<div id="board" data-version="{v}"><!--region a--><p id="a">{a}</p><!--/region a-->'
        '<!--region b--><p id="b">same</p><!--/region b--></div>'
        '<!--region toast--><div id="toast"></div><!--/region toast-->'
    )
    sent = frames.Frames()
    first = board.format(v=1, a="one")
    assert sent.encode(first, 1) == frames.shown(first)  # the regions' markers stay here
    patch = sent.encode(board.format(v=2, a="two"), 2)
    assert patch.startswith('<template data-patch data-base="1"><div id="board" data-version="2">')
    assert '<p id="a">two</p>' in patch and 'id="b"' not in patch
    assert '<div id="toast"></div>' in patch  # always: the page writes into it too
    other = '<div id="board" data-version="3"><p>another board</p></div>'
    # A new skeleton: the whole board, after an empty patch head (it follows version 2 only).
    assert sent.encode(other, 3) == (
        '<template data-patch data-base="2"><div id="board" data-version="3"></div></template>'
        + other
    )
    toast = '<div id="toast"><p class="toast__msg" data-toast>no</p></div>'
    assert sent.encode(toast, 3) == toast  # no board: sent as it is, nothing remembered
    sent.reset()
    assert sent.encode(first, 4) == frames.shown(first)


def test_an_element_whose_attributes_alone_changed_travels_as_its_opening_tag():
    board = (
        '<div id="board" data-version="{v}">'
        '<!--region seat-1--><div id="seat-1" class="seat{c}"><b>Wei</b> {n}</div>'
        "<!--/region seat-1-->"
        '<!--region a--><p id="a">{a}</p><!--/region a--></div>'
    )
    sent = frames.Frames()
    sent.encode(board.format(v=1, c="", n=12, a="one"), 1)
    patch = sent.encode(board.format(v=2, c=" is-to-move", n=12, a="one"), 2)
    assert patch == (
        '<template data-patch data-base="1"><div id="board" data-version="2"></div>'
        '<div id="seat-1" class="seat is-to-move"></div></template>'
    )
    page = Page(resync=lambda: pytest.fail("no resync needed"))
    page.receive(frames.shown(board.format(v=1, c="", n=12, a="one")))
    page.receive(patch)
    assert page.html == frames.shown(board.format(v=2, c=" is-to-move", n=12, a="one"))
    # its content changed too: the element itself
    patch = sent.encode(board.format(v=3, c="", n=11, a="two"), 3)
    assert '<div id="seat-1" class="seat"><b>Wei</b> 11</div>' in patch.partition("</template>")[2]


def test_regions_inside_a_region_travel_alone_and_a_lost_one_is_deleted():
    def board(v, cls, cards, state):
        hand = "".join(
            f'<!--region c-{c}--><button id="c-{c}">{c}</button><!--/region c-{c}-->' for c in cards
        )
        return (
            f'<div id="board" data-version="{v}"><!--region me--><div id="me" class="me{cls}">'
            f'<!--region hand--><div id="hand" style="--n: {len(cards)}">{hand}</div><!--/region hand-->'
            f'<!--region state--><p id="state">{state}</p><!--/region state-->'
            "</div><!--/region me--></div>"
        )

    sent = frames.Frames()
    page = Page(resync=lambda: pytest.fail("no resync needed"))
    first = board(1, "", ["AS", "KH", "2C"], "wait")
    page.receive(sent.encode(first, 1))
    turn = board(2, " is-to-move", ["AS", "KH", "2C"], "play")
    patch = sent.encode(turn, 2)
    assert patch == (
        '<template data-patch data-base="1"><div id="board" data-version="2"></div>'
        '<div id="me" class="me is-to-move"></div></template><p id="state">play</p>'
    )
    page.receive(patch)
    assert page.html == frames.shown(turn)
    played = board(3, "", ["AS", "2C"], "wait")
    patch = sent.encode(played, 3)
    assert 'id="c-AS"' not in patch and '<button id="c-KH" hx-swap-oob="delete"></button>' in patch
    page.receive(patch)
    assert page.html == frames.shown(played)
    drawn = board(4, "", ["3D", "AS", "4H", "9S", "2C", "RJ"], "wait")  # cards came
    patch = sent.encode(drawn, 4)
    head, _, body = patch.partition("</template>")
    assert '<div id="hand" style="--n: 6"></div>' in head  # the hand's own tag, in place
    assert body == (
        '<div id="c-AS" hx-swap-oob="beforebegin:#c-AS"><button id="c-3D">3D</button></div>'
        '<div id="c-2C" hx-swap-oob="beforebegin:#c-2C"><button id="c-4H">4H</button>'
        '<button id="c-9S">9S</button></div>'
        '<div id="hand" hx-swap-oob="beforeend:#hand"><button id="c-RJ">RJ</button></div>'
    )
    page.receive(patch)
    assert page.html == frames.shown(drawn)
    both = board(5, "", ["3D", "5C", "9S", "2C"], "wait")  # played and drawn in one frame
    patch = sent.encode(both, 5)
    assert 'id="c-AS"' in patch and "beforebegin:#c-9S" in patch
    page.receive(patch)
    assert page.html == frames.shown(both)


def test_a_region_of_the_board_that_comes_and_goes_is_inserted_and_deleted():
    def board(v, summary):
        box = '<!--region summary--><div id="summary"><b>over</b></div><!--/region summary-->'
        return (
            f'<div id="board" data-version="{v}"><!--region a--><p id="a">{v}</p><!--/region a-->'
            f"<p>skeleton</p>{box if summary else ''}</div>"
            '<!--region toast--><div id="toast"></div><!--/region toast-->'
        )

    sent = frames.Frames()
    page = Page(resync=lambda: pytest.fail("no resync needed"))
    page.receive(sent.encode(board(1, False), 1))
    over = sent.encode(board(2, True), 2)
    assert '<div id="board" hx-swap-oob="beforeend:#board"><div id="summary">' in over
    assert "skeleton" not in over
    page.receive(over)
    assert page.html == frames.shown(board(2, True))
    again = sent.encode(board(3, False), 3)
    assert '<div id="summary" hx-swap-oob="delete"></div>' in again and "skeleton" not in again
    page.receive(again)
    assert page.html == frames.shown(board(3, False))
    # Anywhere but before another region or at the board's end: the whole board (after an
    # empty patch head), which the page applies on version 3 only, like any patch.
    moved = (
        board(4, True)
        .replace("<p>skeleton</p>", "")
        .replace("</div><!--region toast", "<p>skeleton</p></div><!--region toast")
    )
    whole = sent.encode(moved, 4)
    assert whole.endswith(frames.shown(moved)) and whole.startswith(
        '<template data-patch data-base="3">'
    )
    page.receive(whole)
    assert page.html == frames.shown(moved)


@pytest.mark.parametrize(
    ("old", "new", "sent"),
    [
        (
            "<ol id='l' data-grows><li>1</li></ol>",
            "<ol id='l' data-grows><li>2</li><li>1</li></ol>",
            "<ol id='l' data-grows hx-swap-oob=\"afterbegin\"><li>2</li></ol>",
        ),
        (
            "<ol id='l' data-grows><li>1</li></ol>",
            "<ol id='l' data-grows><li>1</li><li>2</li></ol>",
            "<ol id='l' data-grows hx-swap-oob=\"beforeend\"><li>2</li></ol>",
        ),
        (
            "<ol id='l' data-grows><li>1</li></ol>",
            "<ol id='l' data-grows><li>3</li></ol>",
            "<ol id='l' data-grows><li>3</li></ol>",
        ),
        (
            "<ol id='l'><li>1</li></ol>",
            "<ol id='l'><li>1</li><li>2</li></ol>",
            "<ol id='l'><li>1</li><li>2</li></ol>",
        ),
    ],
)
def test_a_growing_region_sends_only_what_it_gained(old, new, sent):
    assert frames._changed(old, new) == sent


User = get_user_model()
PLAYABLE = [g.name for g in table_games() if g.playable]


def _play(game: str, viewers: list, seed: int, drop: float, clock, steps: int = 80):
    """Play a game move by move, the clock moved on to each bot's move and to each of the
    bots' replies as it shows (paced: one at a time); after every change each viewer's page
    receives its frame, or misses it (probability ``drop``); each page must then be exactly
    a fresh render, drawn anew (no region reused: the regions' inputs are complete).
    ``viewers``: (user, kind, language); kind "open" has every part that opens open."""
    rng = random.Random(seed)
    owner = viewers[0][0]
    table = services.create_table(owner, game, "normal")
    table.spectators = True  # the others watch
    table.save(update_fields=["spectators"])
    code = str(table.code)
    pages = []
    for user, kind, lang in viewers:
        # A page with every part that opens (a round's log) open gets those parts too.
        opened = views_live.OPENABLE if kind == "open" else frozenset()
        sent = frames.Frames()

        def resync(user=user, sent=sent, opened=opened, lang=lang):
            sent.reset()
            html, version = views_live.snapshot(code, user, lang, opened=opened)
            return sent.encode(html, version)

        page = Page(resync)
        html, version = views_live.snapshot(code, user, lang, opened=opened)
        page.receive(sent.encode(html, version))
        pages.append((user, sent, page, opened, lang))
    patches = as_parts = 0
    for _ in range(steps):
        shown = services.get_table(code)
        raw = services.Table.objects.get(code=code)
        if getattr(shown, "next_shown_at", None) is not None:
            clock.to(shown.next_shown_at)  # the next reply on its way shows
            moved = shown
        elif raw.bot_due_at is not None:
            clock.to(raw.bot_due_at)
            moved = services.play_due_bot_move(code)
        else:
            moved = None
        if moved is None or not hasattr(moved, "version"):
            html, _v = views_live.snapshot(code, owner, "en")
            move = load.policies()[game](html, rng)
            if move is None:
                break
            move["version"] = str(load.board_version(html))
            views_live.handle(code, owner, "en", move, game)
        for user, sent, page, opened, lang in pages:
            # As a socket draws: the regions of its last board taken where their inputs are
            # equal, the others from the process's store or drawn.
            frame = views_live.snapshot(code, user, lang, opened=opened, seen=sent.seen)
            DRAWN.clear()  # the same board drawn anew: no region of the store reused
            fresh, _v = views_live.snapshot(code, user, lang, opened=opened)
            if frame.parts is None:
                assert frame.html == fresh, f"{game}: a region drawn before is not what it is now"
            else:  # drawn as parts: each part as the whole board has it
                root, _skeleton, regions = frames.split(fresh)
                assert frame.parts.root == root
                for name, part in frame.parts.changed.items():
                    assert part == regions[name], (
                        f"{game}: a region drawn before is not what it is now"
                    )
                as_parts += 1
            message = sent.message(frame)
            patches += message.startswith("<template data-patch")
            if rng.random() < drop:
                continue  # this page missed the frame
            page.receive(message)
            assert page.html == frames.shown(fresh), f"{game}: the page differs from a fresh render"
    assert as_parts > patches // 2, f"{game}: its boards were not drawn as parts"
    return patches, sum(p.resyncs for _u, _s, p, *_rest in pages)


@pytest.mark.once  # drawing, whatever the database and channel layer
@pytest.mark.django_db
@pytest.mark.parametrize("game", PLAYABLE)
def test_pages_applying_patches_end_exactly_where_a_fresh_render_is(game, settings, clock):
    settings.GAME_PACING = True
    player = User.objects.create_user("frames-player")
    watcher = User.objects.create_user("frames-watcher")
    viewers = [(player, "seat", "en"), (player, "open", "de"), (watcher, "watch", "en")]
    patches, resyncs = _play(game, viewers, seed=7, drop=0.0, clock=clock)
    assert patches > 20  # most frames were patches
    assert resyncs == 0


@pytest.mark.slow
@pytest.mark.once  # drawing, whatever the database and channel layer
@pytest.mark.django_db
@pytest.mark.parametrize("game", PLAYABLE)
def test_a_longer_run_of_patches_ends_exactly_where_a_fresh_render_is(game, settings, clock):
    """The run above over another deal and a longer run of moves (into the next hand):
    players in both languages, a page with every part open, a spectator."""
    settings.GAME_PACING = True
    player = User.objects.create_user("frames-more")
    watcher = User.objects.create_user("frames-more-watcher")
    viewers = [(player, "seat", "en"), (player, "open", "de"), (watcher, "watch", "de")]
    patches, resyncs = _play(game, viewers, seed=21, drop=0.0, clock=clock, steps=120)
    assert patches > 40 and resyncs == 0


@pytest.mark.once  # drawing, whatever the database and channel layer
@pytest.mark.django_db
@pytest.mark.parametrize("game", PLAYABLE)
def test_a_page_that_missed_frames_asks_for_the_whole_board_and_is_right_again(
    game, settings, clock
):
    settings.GAME_PACING = True
    player = User.objects.create_user("frames-player")
    patches, resyncs = _play(
        game, [(player, "seat", "en"), (player, "open", "en")], seed=11, drop=0.2, clock=clock
    )
    assert resyncs > 0


REGION = re.compile(r"<!--region ([\w-]+)-->(.*?)<!--/region \1-->", re.S)


def _cut_by_pattern(html: str) -> tuple[str, dict[str, str]]:
    """The cut as a regular expression makes it (what ``frames._cut`` finds with
    ``str.find``)."""
    regions: dict[str, str] = {}

    def cut(match: re.Match) -> str:
        regions[match.group(1)] = match.group(2)
        return f"<!--region {match.group(1)}-->"

    return REGION.sub(cut, html), regions


@pytest.mark.parametrize(
    "html",
    [
        "",
        "<p>no regions</p>",
        '<!--region a--><p id="a">x</p><!--/region a-->',
        '<div><!--region a--><div id="a"><!--region b--><i id="b"></i><!--/region b-->'
        "</div><!--/region a--> <!--region c--><b id=c></b><!--/region c--></div>",
        "<!--region a--><p>never closed</p><!--region b--><i></i><!--/region b-->",
        "<!--region a b--><p></p><!--/region a b--><!--region ok--><i></i><!--/region ok-->",
        "<!--region --><!--region x-y_1--><i></i><!--/region x-y_1--><!--/region -->",
        "<!--region a--><p>one</p><!--/region a--><!--region a--><p>two</p><!--/region a-->",
        "<!--/region a--><!--region a-->",
    ],
)
def test_the_cut_finds_what_the_region_pattern_finds(html):
    assert frames._cut(html) == _cut_by_pattern(html)


@pytest.mark.django_db
@pytest.mark.parametrize("game", PLAYABLE)
def test_the_cut_of_real_boards_is_the_patterns(game):
    owner = User.objects.create_user("frames-cut")
    code = str(services.create_table(owner, game, "normal").code)
    rng = random.Random(3)
    boards = 0
    for _ in range(40):
        html, _v = views_live.snapshot(code, owner, "en", opened=views_live.OPENABLE)
        assert frames._cut(html) == _cut_by_pattern(html)
        root, skeleton, regions = frames.split(html)
        assert root and _cut_by_pattern(skeleton) == (skeleton, {})
        for part in regions.values():
            assert frames._cut(part) == _cut_by_pattern(part)
        boards += 1
        if services.play_due_bot_move(code, force=True) is None:
            move = load.policies()[game](html, rng)
            if move is None:
                break
            move["version"] = str(load.board_version(html))
            views_live.handle(code, owner, "en", move, game)
    assert boards >= 10


KEYED = re.compile(r"(\{% region [^%]*? by )([^%]*?)( %\})")


@pytest.mark.django_db
@pytest.mark.parametrize("game", PLAYABLE)
def test_a_region_drawn_without_one_of_its_inputs_is_found(game, settings, clock):
    """The check above finds a region whose inputs miss one: the game's board with its first
    region's inputs taken out (one constant for every board) is caught."""
    settings.GAME_PACING = True
    env = engines["boards"].env
    gspec = table_game(game)
    name = gspec.parts_template  # the regions are in the parts' macros
    source = env.loader.get_source(env, name)[0]
    assert KEYED.search(source), f"{name} draws every region each time (no 'by')"
    broken = KEYED.sub(r"\g<1>0\g<3>", source, count=1)
    original = env.loader
    env.loader = ChoiceLoader([DictLoader({name: broken}), original])
    env.cache.clear()
    DRAWN.clear()
    try:
        player = User.objects.create_user("frames-broken")
        with pytest.raises(AssertionError, match="a region drawn before"):
            _play(game, [(player, "seat", "en")], seed=7, drop=0.0, clock=clock, steps=60)
    finally:
        env.loader = original
        env.cache.clear()
        DRAWN.clear()


def _next_change(game: str, code: str, owner, rng: random.Random, clock) -> None:
    """The table's next change: the next reply on its way shown, a due bot move, or the
    player's move."""
    shown = services.get_table(code)
    if getattr(shown, "next_shown_at", None) is not None:
        clock.to(shown.next_shown_at)
    elif services.play_due_bot_move(code, force=True) is None:
        html, _v = views_live.snapshot(code, owner, "en")
        move = load.policies()[game](html, rng)
        move["version"] = str(load.board_version(html))
        views_live.handle(code, owner, "en", move, game)


@pytest.mark.django_db
@pytest.mark.parametrize("game", PLAYABLE)
def test_parts_drawn_against_a_board_the_socket_no_longer_has_go_whole(game, settings, clock):
    """Two boards drawn for one socket against the same last board (a paced reply drawn
    while the answer to a move was on its way): the second, sent after the first, is drawn
    whole after all, and the page ends where a fresh render is."""
    settings.GAME_PACING = True
    owner = User.objects.create_user("frames-race")
    code = str(services.create_table(owner, game, "normal").code)
    sent = frames.Frames()
    first = views_live.snapshot(code, owner, "en")
    page = Page(lambda: pytest.fail("no resync expected"))
    page.receive(sent.message(first))
    rng = random.Random(9)
    for _ in range(40):  # until a move brings a board of the same shape, drawn as parts
        _next_change(game, code, owner, rng, clock)
        one = views_live.snapshot(code, owner, "en", seen=sent.seen)
        if one.parts is not None:
            break
    else:
        pytest.fail(f"{game}: no board drawn as parts")
    for _ in range(40):  # the next change, drawn against the same last board
        _next_change(game, code, owner, rng, clock)
        two = views_live.snapshot(code, owner, "en", seen=sent.seen)
        if two.version > one.version:
            break
    page.receive(sent.message(one))
    assert two.parts is not None and two.parts.base is not sent.seen  # drawn against the old
    page.receive(sent.message(two))
    fresh, _v = views_live.snapshot(code, owner, "en")
    assert page.html == frames.shown(fresh)
    assert sent.version == two.version and views_live.PLAN in sent.seen


class _AlwaysEqual(str):
    """A part's argument that compares equal to anything: a fingerprint that misses it."""

    __hash__ = str.__hash__

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False


@pytest.mark.django_db
@pytest.mark.parametrize("game", PLAYABLE)
def test_a_part_compared_without_one_of_its_arguments_is_found(game, settings, clock, monkeypatch):
    """The parts are compared by their arguments before any template runs: a plan whose
    status line's argument compares equal whatever it says (as if the comparison left it
    out) sends a stale status line, and the check above catches it."""
    settings.GAME_PACING = True
    presenter = table_game(game).hooks["presenter"]
    planned = presenter.parts

    def parts(context):
        plan = planned(context)
        macro, (status,) = plan.parts["status"]
        plan.parts["status"] = (macro, (_AlwaysEqual(status),))
        return plan

    monkeypatch.setattr(presenter, "parts", parts)
    player = User.objects.create_user("frames-blind")
    with pytest.raises(AssertionError, match="differs from a fresh render"):
        _play(game, [(player, "seat", "en")], seed=7, drop=0.0, clock=clock, steps=60)


@pytest.mark.django_db
@pytest.mark.parametrize("game", PLAYABLE)
def test_a_sockets_next_board_takes_the_regions_whose_inputs_are_the_same(game, settings, clock):
    """Each bot's reply as it shows (paced), drawn for a socket that has the board before it:
    every region whose inputs did not change is the last board's, as it was (neither written
    out nor looked up); those that changed are drawn, or found in the process's store."""
    settings.GAME_PACING = True
    owner = User.objects.create_user("frames-seen")
    code = str(services.create_table(owner, game, "normal").code)
    rng = random.Random(5)
    taken = drawn = replies = 0
    last = views_live.snapshot(code, owner, "en", opened=views_live.OPENABLE)
    for _ in range(60):
        shown = services.get_table(code)
        raw = services.Table.objects.get(code=code)
        reply = getattr(shown, "next_shown_at", None) is not None
        if reply:
            clock.to(shown.next_shown_at)  # the next reply on its way shows
        elif raw.bot_due_at is not None:
            clock.to(raw.bot_due_at)
            services.play_due_bot_move(code)
        else:
            html, _v = views_live.snapshot(code, owner, "en")  # the whole board, to choose on
            move = load.policies()[game](html, rng)
            if move is None:
                break
            move["version"] = str(load.board_version(html))
            views_live.handle(code, owner, "en", move, game)
        now = views_live.snapshot(code, owner, "en", opened=views_live.OPENABLE, seen=last.drawn)
        # A region inside one that changed comes with it (from the store, or drawn).
        regions = {k: v for k, v in now.drawn.items() if k != views_live.PLAN}
        inside_new = {
            inner
            for name, entry in regions.items()
            if entry is not last.drawn.get(name)
            for inner, _entry in entry[2]
        }
        for name, entry in regions.items():
            before = last.drawn.get(name)
            if before is not None and before[0] == entry[0] and name not in inside_new:
                assert entry is before, f"{game}: {name} drawn again with the same inputs"
                taken += reply
            else:
                drawn += reply
        replies += reply
        last = now
    assert replies > 5
    assert taken > 0 and drawn > 0
