"""Hand reviews: Hard weighs a person's own decisions of a finished hand, from what their seat
saw then, in a low-priority worker of its own; the page shows progress, then the decisions."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games import history, reviews, services
from games.bots import get_bot
from games.bots.review import Decision, weigh
from games.engine.base import IllegalAction
from games.models import ActionLog, HandReview, Table
from games.registry import table_game, table_games
from tests.games.people import finish_hand, play_hand_yourself, player

PLAYABLE = [g.name for g in table_games() if g.playable]


@pytest.fixture(autouse=True)
def _english(settings):
    settings.GAME_PACING = False
    with translation.override("en"):
        yield


def _played_hand(game: str, user) -> Table:
    table = services.create_table(user, game, "easy")
    table = play_hand_yourself(table, user)
    assert table.hands.get(number=1).ended_at is not None
    return table


def _mid_decision(game: str) -> Decision:
    """A decision in the middle of a hand with several things to do (bots play all seats)."""
    engine = table_game(game).engine
    seats = engine.info.default_seats
    normal = get_bot(game, "normal")
    rng = random.Random(3)
    state = engine.new_match(seed=11, seats=seats, options=None)
    found = []
    for _ in range(200):
        seat = engine.to_move(state)[0]
        legal = engine.legal_actions(state, seat)
        seen = engine.observation(state, seat)
        action = normal.act(seen, legal, rng)
        if get_bot(game, "hard").shortlist(seen, legal) and len(legal) > 2:
            found.append(Decision(game, seen, legal, action, "s"))
        state = engine.apply(state, seat, action)
        if engine.hand_over(state):
            break
    return found[len(found) // 2]


@pytest.mark.parametrize("game", PLAYABLE)
@pytest.mark.once
def test_hard_weighs_every_action_on_the_same_deals(game):
    decision = _mid_decision(game)
    hard = get_bot(game, "hard")
    actions = hard.shortlist(decision.observation, decision.legal)
    twice = [*actions, actions[0]]
    values = hard.evaluate(decision.observation, twice, random.Random(5), 8)
    assert len(values) == len(twice)
    # The same sampled deals for every action: the same action scores exactly the same.
    assert values[0] == values[-1]
    assert values == hard.evaluate(decision.observation, twice, random.Random(5), 8)


@pytest.mark.parametrize("game", PLAYABLE)
@pytest.mark.once
def test_hard_weighs_the_action_taken_beside_its_own_choice(game):
    decision = _mid_decision(game)
    weighed = weigh(decision)
    actions = [a for a, _ in weighed["values"]]
    assert decision.taken in actions and weighed["best"] in actions
    values = {json.dumps(a, sort_keys=True): v for a, v in weighed["values"]}
    best = max(values.values())
    taken = values[json.dumps(decision.taken, sort_keys=True)]
    assert weighed["loss"] == pytest.approx(best - taken, abs=0.02)
    if weighed["loss"] == 0:
        assert weighed["best"] == decision.taken
    assert weigh(decision) == weighed  # the same decision and seed: the same review


@pytest.mark.django_db
@pytest.mark.parametrize("game", PLAYABLE)
def test_a_review_weighs_the_persons_own_decisions_only(game):
    user = player()
    table = _played_hand(game, user)
    hand = table.hands.get(number=1)
    decisions = reviews.decisions_of(table, 1, 0, hand.pk)
    own = ActionLog.objects.filter(hand=hand, seat=0, by_computer=False)
    assert decisions, "a whole hand played by the person has decisions to weigh"
    assert {seq for seq, _, _ in decisions} <= set(own.values_list("seq", flat=True))
    for seq, position, decision in decisions:
        assert decision.taken == own.get(seq=seq).action
        assert decision.observation["seat"] == 0
        assert len(decision.legal) > 1
        json.dumps(position)  # kept with the review as it is
        assert sorted(position["hand"]) == sorted(decision.observation["hand"])
    # A seat the computer played for the person (auto-play) has nothing to review.
    table2 = services.create_table(user, game, "easy")
    table2 = finish_hand(table2, user)
    assert reviews.decisions_of(table2, 1, 0, table2.hands.get(number=1).pk) == []


def _cards(action: dict) -> list[str]:
    return [action["card"]] if "card" in action else list(action.get("cards") or [])


def _hidden_swaps(deal: dict, seat: int):
    """Pairs of places (kind, seat or None, index) holding cards the seat was not dealt: two
    opponents' cards, or, in a game with a stock, an opponent's card and a stock card."""
    places = [
        ("hands", s, i)
        for s, cards in enumerate(deal["hands"])
        if s != seat
        for i in range(len(cards))
    ]
    places += [("stock", None, i) for i in range(len(deal.get("stock") or []))]
    return itertools.combinations(places, 2)


def _get(deal, place):
    kind, s, i = place
    return deal[kind][s][i] if s is not None else deal[kind][i]


def _put(deal, place, card):
    kind, s, i = place
    if s is not None:
        deal[kind][s][i] = card
    else:
        deal[kind][i] = card


@pytest.mark.django_db
@pytest.mark.parametrize("game", PLAYABLE)
@pytest.mark.once
def test_a_review_never_uses_hidden_information(game):
    """The cards the person could not see dealt differently, everything they saw kept the
    same: the review of every decision up to there is the same."""
    user = player()
    table = _played_hand(game, user)
    engine = table_game(game).engine
    recorded = history.deal_of_hand(table, 1)
    log = list(table.hands.get(number=1).actions.order_by("seq"))
    # Only the deal that was played (Dou Dizhu throws a deal in when everyone passes).
    count = getattr(engine, "deals_in_hand", None)
    state = engine.new_match(seed=int(table.seed), seats=table.seats.count(), options=None)
    for e in list(log):
        before = count(state) if count else 1
        state = engine.apply(state, e.seat, e.action)
        if count and count(state) > before:
            del log[: log.index(e) + 1]
    own = [e for e in log if e.seat == 0 and not e.by_computer]
    cut = own[len(own) // 2].seq  # the person's decision in the middle of the hand
    prefix = [e for e in log if e.seq <= cut]
    played = {c for e in prefix for c in _cards(e.action)}

    def rebuilt(deal):
        state = engine.new_match_from_deal(deal, recorded["dealer"], table.options or None, seed=1)
        for e in prefix[:-1]:
            state = engine.apply(state, e.seat, e.action)
        return state

    seen = engine.observation(rebuilt(recorded["deal"]), 0)
    other = None
    for a, b in _hidden_swaps(recorded["deal"], 0):
        ca, cb = _get(recorded["deal"], a), _get(recorded["deal"], b)
        if ca in played or cb in played or ca[0] == cb[0]:
            continue
        deal = json.loads(json.dumps(recorded["deal"]))
        _put(deal, a, cb)
        _put(deal, b, ca)
        try:
            if engine.observation(rebuilt(deal), 0) == seen:
                other = deal
                break
        except IllegalAction:
            continue
    assert other is not None and other != recorded["deal"]

    # The same table's record with the other deal: the person's moves and the computer's,
    # as logged, up to the decision in the middle.
    twin = services.create_same_deal_table(
        user, table, {**recorded, "deal": other, "hand": table.hands.get(number=1)}, 0
    )
    twin_hand = twin.hands.get(number=1)
    ActionLog.objects.filter(table=twin).delete()
    for e in prefix:
        ActionLog.objects.create(
            table=twin,
            hand=twin_hand,
            seq=e.seq,
            seat=e.seat,
            action=e.action,
            by_computer=e.by_computer,
        )
    mine = {seq: (position, d) for seq, position, d in reviews.decisions_of(table, 1, 0, 1)}
    theirs = reviews.decisions_of(twin, 1, 0, 1)
    assert theirs and {seq for seq, _, _ in theirs} <= set(mine)
    # The twin does not replay the deals thrown in before (Dou Dizhu): their count aside,
    # the seat saw the same in both.
    thrown = ("redeals", "last_deal_thrown_in")
    for seq, position, decision in theirs:
        position1, decision1 = mine[seq]
        assert position1 == position
        assert (decision1.legal, decision1.taken) == (decision.legal, decision.taken)
        seen1 = {k: v for k, v in decision1.observation.items() if k not in thrown}
        assert seen1 == {k: v for k, v in decision.observation.items() if k not in thrown}
        assert weigh(decision1) == weigh(decision)


@pytest.mark.django_db(transaction=True)
def test_the_review_is_made_by_its_worker_and_kept_with_the_hand(client):
    user = player()
    table = _played_hand("gongzhu", user)
    client.force_login(user)
    url = reverse("games:review", kwargs={"code": table.code, "number": 1})
    page = client.get(url)
    assert page.status_code == 200
    review = HandReview.objects.get(hand__table=table, seat=0)
    assert review.total > 0
    assert reviews.wait_idle(timeout=120), "the review worker did not finish"
    review.refresh_from_db()
    assert review.status == HandReview.Status.DONE
    # Exposures and bids are not weighed: the count of decisions looked at holds them too.
    assert review.done == review.total >= len(review.decisions) > 0
    page = client.get(url)
    assert page.context["decisions"] and not page.context["running"]
    assert b'data-testid="review-decision"' in page.content
    # Asked for again: the one kept, not a second.
    client.get(url)
    assert HandReview.objects.filter(hand__table=table).count() == 1
    body = client.get(url, HTTP_HX_REQUEST="true")
    assert body.content.lstrip().startswith(b'<div id="review-body"')


@pytest.mark.django_db
def test_only_the_hands_player_may_see_its_review(client):
    user = player()
    table = _played_hand("gongzhu", user)
    url = reverse("games:review", kwargs={"code": table.code, "number": 1})
    client.force_login(player("mo"))
    assert client.get(url).status_code == 404
    client.force_login(user)
    for number in (2, 99):
        assert client.get(url.replace("/1/", f"/{number}/")).status_code == 404
    bad = url.replace(str(table.code), "not-a-code")
    assert client.get(bad).status_code == 404
    assert not HandReview.objects.exists()


@pytest.mark.django_db
def test_a_hand_in_progress_has_no_review(client):
    user = player()
    table = services.create_table(user, "gongzhu", "easy")
    client.force_login(user)
    url = reverse("games:review", kwargs={"code": table.code, "number": 1})
    assert client.get(url).status_code == 404
    assert not HandReview.objects.exists()


@pytest.mark.django_db
def test_a_stalled_review_starts_again_and_a_failed_one_on_request(client, monkeypatch):
    user = player()
    table = _played_hand("gongzhu", user)
    started = []
    monkeypatch.setattr(reviews, "_start", lambda review, *a: started.append(review.pk))
    client.force_login(user)
    url = reverse("games:review", kwargs={"code": table.code, "number": 1})
    client.get(url)
    client.get(url)
    assert len(started) == 1
    old = timezone.now() - timezone.timedelta(seconds=reviews.STALE_SECONDS + 5)
    HandReview.objects.update(updated_at=old)
    client.get(url)
    assert len(started) == 2
    HandReview.objects.update(status=HandReview.Status.FAILED)
    page = client.get(url)
    assert b'data-testid="review-again"' in page.content and len(started) == 2
    assert client.post(url).status_code == 302
    assert len(started) == 3


@pytest.mark.django_db
def test_a_review_cut_short_by_a_stopping_process_starts_again_when_next_asked_for(
    client, monkeypatch
):
    from concurrent.futures import Future

    user = player()
    table = _played_hand("gongzhu", user)
    review = HandReview.objects.create(hand=table.hands.get(number=1), seat=0, total=2)
    job = {"id": review.pk, "left": 2, "out": [None, None], "failed": False}
    cancelled = Future()
    cancelled.cancel()
    for i in range(2):
        reviews._record(job, i, i, {}, cancelled)
    review.refresh_from_db()
    assert review.status == HandReview.Status.QUEUED
    started = []
    monkeypatch.setattr(reviews, "_start", lambda review, *a: started.append(review.pk))
    client.force_login(user)
    client.get(reverse("games:review", kwargs={"code": table.code, "number": 1}))
    assert started == [review.pk]
