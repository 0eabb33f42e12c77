"""The Dou Dizhu table on the machinery: the setup page, bidding, the kitty, play through
frames, refusals in both languages, Hint, the settlement and the replay."""

import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services, views_live
from games.engine import get_game
from games.tables.doudizhu import frames
from games.tables.doudizhu import presenter as present

pytestmark = pytest.mark.django_db
GAME = get_game("doudizhu")
CARD = re.compile(r'data-card="(\w\w)"')


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("mei", password="Kartenspiel-2026")


def state_of(table):
    table.refresh_from_db()
    return GAME.from_json(table.state)


def send(table, user, data, lang="en"):
    table.refresh_from_db()
    html, _v = views_live.handle(
        str(table.code), user, lang, {**data, "version": str(table.version)}
    )
    return html


def check_kitty(html, state):
    """Before the landlord is known no frame shows a kitty card (nor another seat's card)."""
    shown = set(CARD.findall(html))
    if state.landlord is None:
        assert not shown & set(state.kitty), "the kitty is shown before the landlord is known"
    others = {c for s, h in enumerate(state.hands) if s != 0 for c in h}
    played = {c for _s, cards, _m in state.plays for c in cards or []}
    if state.landlord is not None:
        played |= set(state.kitty)  # shown to everyone once the landlord is known
    assert not shown & (others - played), "another seat's card is shown"


def landlord_table(user, tries=30):
    """A table where seat 0 wins the bidding with a 3 (bots bid first on hand 1)."""
    for _ in range(tries):
        table = services.create_table(user, "doudizhu", "easy")
        services.run_bots(table.code)
        state = state_of(table)
        if state.phase == "bidding" and state.turn == 0 and state.bid < 3:
            send(table, user, {"action": "bid", "value": "3"})
            if state_of(table).landlord == 0:
                return table
    pytest.skip("no deal where seat 0 could bid 3")


def test_setup_page_offers_match_length_and_difficulty(client):
    html = client.get(reverse("games:play_now", kwargs={"game": "doudizhu"})).content.decode()
    for n in (1, 3, 5, 10):
        assert f'data-testid="hands-{n}"' in html
    assert 'value="5" checked' in html
    assert 'data-testid="level-hard"' in html
    assert "table-rules" in html


def test_setup_start_creates_a_table_with_the_chosen_length(client):
    response = client.post(
        reverse("games:play_now", kwargs={"game": "doudizhu"}), {"hands": "3", "level": "hard"}
    )
    assert response.status_code in (200, 302)
    from games.models import Table

    table = Table.objects.get(game="doudizhu")
    assert table.options == {"hands": 3} and table.level == "hard"


def test_a_whole_hand_through_frames(user):
    rng = random.Random(4)
    for _ in range(10):
        # the bots bid first: a deal where one of them bids 3 at once never asks seat 0
        table = services.create_table(user, "doudizhu", "easy", {"hands": 1})
        services.run_bots(table.code)
        if state_of(table).phase == "bidding":
            break
    saw_bids = saw_kitty_back = saw_landlord = False
    for _ in range(300):
        services.run_bots(table.code)
        state = state_of(table)
        if GAME.hand_over(state):
            break
        legal = GAME.legal_actions(state, 0)
        html, _v = views_live.snapshot(str(table.code), user, "en")
        check_kitty(html, state)
        if state.phase == "bidding":
            saw_bids = True
            offered = set(re.findall(r'data-testid="bid-(\d)"', html))
            assert offered == {str(a["value"]) for a in legal}
            assert 'class="back"' in html.split('data-testid="kitty"')[1][:600]
            saw_kitty_back = True
        else:
            saw_landlord = True
            assert 'data-testid="landlord-badge"' in html
            assert set(state.kitty) <= set(CARD.findall(html))
            assert 'data-testid="bid-' not in html
            if state.table is None:
                assert 'data-testid="pass"' not in html
            else:
                assert 'data-testid="pass"' in html
                if not any(a["type"] == "play" for a in legal):
                    assert "No higher play – pass" in html
        choice = rng.choice(legal)
        if choice["type"] == "play" and rng.random() < 0.7:
            # plays prefer few cards, so the hand ends
            choice = min((a for a in legal if a["type"] == "play"), key=lambda a: len(a["cards"]))
        reply = send(table, user, frames.frame(choice))
        check_kitty(reply, state_of(table))
        assert "toast__msg" not in reply
    state = state_of(table)
    assert GAME.hand_over(state) and saw_bids and saw_kitty_back and saw_landlord
    html, _v = views_live.snapshot(str(table.code), user, "en")
    assert 'data-testid="settlement"' in html and 'data-testid="sum"' in html
    assert 'data-testid="ranking"' in html  # a one-hand match is over
    assert sum(state.result["scores"]) == 0


def test_the_frame_ships_only_ambiguous_readings(user):
    table = landlord_table(user)
    html, _v = views_live.snapshot(str(table.code), user, "en")
    data = re.search(r'class="readings-data"[^>]*>(.*?)</script>', html).group(1)
    legal = GAME.legal_actions(state_of(table), 0)
    assert len(data) < 200 * len(legal) // 10 + 2000
    for sig, readings in __import__("json").loads(data).items():
        assert len(readings) > 1 and sig == present.signature(sig_cards(sig, legal))


def sig_cards(sig, legal):
    for a in legal:
        if a["type"] == "play" and present.signature(a["cards"]) == sig:
            return a["cards"]
    raise AssertionError(sig)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("form no play", "cannot pass", "A bid is 1, 2 or 3")),
        ("de", ("keine Kombination", "passen geht nicht", "Ein Gebot ist 1, 2 oder 3")),
    ],
)
def test_refusals_are_translated_and_change_nothing(user, lang, words):
    table = landlord_table(user)
    state = state_of(table)
    hand = list(state.hands[0])
    # two cards of different ranks, no jokers: no combination
    first = hand[0]
    other = next(
        c for c in hand if c[0] != first[0] and c not in ("BJ", "RJ") and first not in ("BJ", "RJ")
    )
    before = (table.version, table.state)
    reply = send(table, user, {"action": "play", "cards": [first, other]}, lang)
    assert words[0] in reply
    reply = send(table, user, {"action": "pass"}, lang)
    assert words[1] in reply
    state_of(table)
    assert (table.version, table.state) == before
    # a bid out of the bidding phase names that; an impossible bid value elsewhere
    fresh = services.create_table(user, "doudizhu", "easy")
    services.run_bots(fresh.code)
    if state_of(fresh).phase == "bidding":
        reply = send(fresh, user, {"action": "bid", "value": "7"}, lang)
        assert words[2] in reply


def test_hint_selects_and_never_plays(user):
    table = landlord_table(user)
    before = (table.version, table.state)
    html = send(table, user, {"action": "hint"})
    table.refresh_from_db()
    assert (table.version, table.state) == before
    selected = re.findall(
        r'class="hand__card[^"]*is-selected[^"]*"(?: data-playable)?\s+data-card="(\w\w)"', html
    )
    assert selected, "the hint selects cards"
    assert 'data-hint="play"' in html


def test_hint_while_bidding_marks_a_bid(user):
    table = services.create_table(user, "doudizhu", "easy")
    services.run_bots(table.code)
    if state_of(table).phase != "bidding":
        pytest.skip("the bots ended the bidding")
    before = table.version
    html = send(table, user, {"action": "hint"})
    table.refresh_from_db()
    assert table.version == before and "is-suggested" in html


def test_the_kitty_is_marked_in_the_landlords_hand_until_the_first_play(user):
    table = landlord_table(user)
    state = state_of(table)
    html, _v = views_live.snapshot(str(table.code), user, "en")
    new = set(
        re.findall(
            r'class="hand__card[^"]*is-new[^"]*"(?: data-playable)?\s+data-card="(\w\w)"', html
        )
    )
    assert new == set(state.kitty)


def play_the_hand(table, user, choose, lang="en") -> list[str]:
    """Seat 0's person plays the hand to its end through the page's frames, ``choose(legal,
    plays)`` picking each move, the bots the rest: the boards the person was sent."""
    boards = []
    for _ in range(300):
        services.run_bots(table.code)
        state = state_of(table)
        if GAME.hand_over(state):
            break
        legal = GAME.legal_actions(state, 0)
        choice = choose(legal, [a for a in legal if a["type"] == "play"])
        boards.append(send(table, user, frames.frame(choice), lang=lang))
    return boards


def test_the_replay_shows_the_bidding_kitty_and_every_play(user):
    table = services.create_table(user, "doudizhu", "easy", {"hands": 3})
    rng = random.Random(2)
    play_the_hand(
        table,
        user,
        lambda legal, plays: (
            max(plays, key=lambda a: len(a["cards"])) if plays else rng.choice(legal)
        ),
    )
    state = state_of(table)
    client = Client()
    client.force_login(user)
    html = client.get(reverse("games:replay", kwargs={"code": table.code, "number": 1}))
    html = html.content.decode()
    assert 'data-testid="replay-kitty"' in html and 'data-testid="replay-bids"' in html
    for _s, cards, _m in state.plays:
        assert set(cards or []) <= set(CARD.findall(html))
    # the next hand starts through the frame
    reply = send(table, user, {"action": "next"})
    assert state_of(table).hand_number == 2 and "toast__msg" not in reply


def test_the_lobby_offers_the_game(client):
    html = client.get(reverse("lobby")).content.decode()
    assert 'data-testid="play-doudizhu"' in html


def test_load_move_bids_passes_and_leads():
    from games.bench.doudizhu import load_move

    # The load client reads data-* attributes only.
    bidding = (
        '<div id="board" class="ddz-board" data-version="3" data-phase="bidding" data-my-turn>'
    )
    assert load_move(bidding + 'data-testid="bid-1"', random.Random(1))["action"] == "bid"
    follow = '<div id="board" data-version="3" data-my-turn data-following data-phase="follow">'
    assert load_move(follow, random.Random(1)) == {"action": "pass"}
    lead = (
        '<div id="board" class="ddz-board" data-version="3" data-phase="lead" data-my-turn>'
        '<button type="button" class="hand__card" data-playable data-card="7H">'
    )
    assert load_move(lead, random.Random(1)) == {"action": "play", "cards": ["7H"]}
    assert load_move('<div id="board" class="ddz-board">', random.Random(1)) is None


def test_all_pass_throws_the_deal_in_and_says_so(user, settings):
    # Hard's bids are thought out in the driver's workers, so they stay due: the new deal is
    # still bidding (Easy's came in the same transaction, and a bot's 3 could end it).
    settings.GAME_PACING = True
    table = services.create_table(user, "doudizhu", "hard")
    state = GAME.to_json(GAME.new_match(seed=int(table.seed)))
    state.update(bids=[[1, 0], [2, 0]], turn=0)
    table.state = state
    table.save()
    reply = send(table, user, {"action": "bid", "value": "0"})
    after = state_of(table)
    assert after.redeals == 1 and after.phase == "bidding"
    assert 'data-testid="thrown-in"' in reply and "thrown in, new deal" in reply
    check_kitty(reply, after)
    html = send(table, user, {"action": "bid", "value": "0"}, "de")  # not its turn now
    assert "eingeworfen" in html


def test_the_settings_page_replaces_the_match(user):
    table = services.create_table(user, "doudizhu", "easy", {"hands": 10})
    client = Client()
    client.force_login(user)
    url = reverse("games:play_now", kwargs={"game": "doudizhu"})
    html = client.get(url + f"?replaces={table.code}").content.decode()
    assert f'value="{table.code}"' in html and 'value="10" checked' in html


SELECTED = re.compile(
    r'class="hand__card[^"]*is-selected[^"]*"(?: data-playable)?\s+data-card="(\w\w)"'
)


def _reading(table, user, cards, lang="en"):
    html = views_live.read(str(table.code), user, lang, {"action": "read", "cards": cards})
    m = re.search(r'id="selection-reading"[^>]*hx-swap-oob="innerHTML">([^<]*)</p>', html)
    assert m, html
    return m.group(1)


def test_a_selection_is_read_live_by_the_engine(user):
    table = landlord_table(user)
    state = state_of(table)
    before = (table.state, table.version)
    legal = [a for a in GAME.legal_actions(state, 0) if a["type"] == "play"]
    for play in legal[:: max(1, len(legal) // 8)]:
        words = _reading(table, user, play["cards"])
        with translation.override("en"):  # whatever language an earlier test left active
            assert present.combo_label(play["combo"]) in words, (play, words)
    # Three singles of different ranks in a row of gaps are no combination.
    by_rank = {}
    for c in state.hands[0]:
        by_rank.setdefault(present.rank_of(c), c)
    ranks = [r for r in present.ORDER if r in by_rank]
    gappy = [by_rank[r] for r in ranks[::3]][:3]
    if len(gappy) == 3 and not ({"BJ", "RJ"} >= {present.rank_of(c) for c in gappy[1:]}):
        assert _reading(table, user, gappy) == "Not a combination."
    others = [c for s, h in enumerate(state.hands) if s != 0 for c in h]
    assert _reading(table, user, [others[0]]) == "Not a play."
    assert _reading(table, user, [state.hands[0][0]], "de").startswith("Einzel")
    table.refresh_from_db()
    assert (table.state, table.version) == before  # a read is no move
    stranger = get_user_model().objects.create_user("ole", password="x")
    assert views_live.read(str(table.code), stranger, "en", {"cards": [others[0]]}) == ""


def test_hint_suggests_the_next_play_on_each_further_press(user):
    table = landlord_table(user)
    state = state_of(table)
    legal = GAME.legal_actions(state, 0)
    seen = []
    for n in range(3):
        html = send(table, user, {"action": "hint", "n": str(n)})
        seen.append(tuple(sorted(SELECTED.findall(html))))
    assert len(legal) >= 3 and len(set(seen)) == 3, seen
    table.refresh_from_db()
    assert seen[0] and GAME.to_move(state_of(table)) == GAME.to_move(state)  # never plays


@pytest.mark.django_db(transaction=True)
async def test_read_requests_are_answered_at_a_persons_pace_and_no_faster():
    from asgiref.sync import sync_to_async

    from games.sockets import READS_BURST
    from tests.games.test_consumers import connect

    mei = await sync_to_async(get_user_model().objects.create_user)("mei2", password="x")
    table = await sync_to_async(services.create_table)(mei, "doudizhu", "easy")
    state = await sync_to_async(state_of)(table)
    comm = await connect(mei, table)
    await comm.receive_from(timeout=10)
    for _ in range(READS_BURST * 3):
        await comm.send_json_to({"action": "read", "cards": [state.hands[0][0]]})
    answers = 0
    while not await comm.receive_nothing(timeout=0.5):
        answer = await comm.receive_from()
        if 'id="board"' in answer:
            continue  # the bots' moves, meanwhile
        assert 'id="selection-reading"' in answer
        answers += 1
    assert READS_BURST <= answers < READS_BURST * 2  # the rest were dropped
    await comm.disconnect()


def test_a_thrown_in_deal_is_in_the_replay_and_the_deal_played_is_shown(user):
    """Three people at one table all pass: the deal is thrown in; the replay of the finished
    hand lists that deal apart and shows the hands and kitty of the deal that was played."""
    from games.models import Seat

    people = [user] + [
        get_user_model().objects.create_user(n, password="x") for n in ("lin", "ren")
    ]
    table = services.create_table(user, "doudizhu", "easy", {"hands": 1})
    for i in (1, 2):
        Seat.objects.filter(table=table, index=i).update(kind="person", user=people[i])
    first = state_of(table)
    rng = random.Random(4)
    passes = 0
    for _ in range(300):
        state = state_of(table)
        if GAME.hand_over(state):
            break
        seat = GAME.to_move(state)[0]
        legal = GAME.legal_actions(state, seat)
        if state.phase == "bidding" and passes < 3:
            action = next(a for a in legal if a["type"] == "bid" and a["value"] == 0)
            passes += 1
        else:
            action = rng.choice(legal)
        table.refresh_from_db()
        services.submit_action(table.code, people[seat], action, table.version)
    assert GAME.hand_over(state_of(table)) and state_of(table).redeals == 1
    client = Client()
    client.force_login(user)
    with translation.override("en"):
        url = reverse("games:replay", kwargs={"code": table.code, "number": 1})
    html = client.get(url).content.decode()
    assert 'data-testid="thrown-in-deals"' in html and "1 deal was thrown in" in html
    thrown, played = html.split("The deal</h2>", 1)
    assert set(first.hands[0]) <= set(CARD.findall(thrown))  # the first deal, listed apart
    from games.engine.doudizhu.state import deal

    hands, kitty = deal(int(table.seed), first.deal_number + 1)  # the deal that was played
    shown_kitty = re.search(r'data-testid="replay-kitty">(.*?)</p>', played, re.S).group(1)
    assert set(CARD.findall(shown_kitty)) == set(kitty)
    assert set(hands[0]) <= set(CARD.findall(played.split('data-testid="replay-kitty"')[0]))


def test_each_joker_has_one_glyph_in_the_hand_and_in_the_counter(user):
    """The black joker is ★ on its card and ★ in the counter of unseen cards (it was ☆
    there); the red one the same, its colour tells them apart."""
    table = services.create_table(user, "doudizhu", "easy")
    html, _v = views_live.snapshot(str(table.code), user, "en")
    counter = re.search(r'<ol id="counter".*?</ol>', html, re.S).group(0)
    glyphs = dict(re.findall(r'data-rank="(BJ|RJ)"[^>]*><span>([^<]*)</span>', counter))
    from games.tables.common import Card

    assert glyphs == {"BJ": Card("BJ").rank, "RJ": Card("RJ").rank} == {"BJ": "★", "RJ": "★"}
    assert "☆" not in html
