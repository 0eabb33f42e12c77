"""The deal of the day's pages: today's deals, a day's standings with the player's comparison
against everyone who reached the same positions, the best result's replay, past days."""

from __future__ import annotations

import json
from datetime import date

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games import history, reviews, services
from games.messages import refusal
from games.models import ActionLog, DailyDeal, DailyEntry, Table
from games.registry import table_game, table_games
from games.services.daily import COMPARED_FROM, choices_at, entry_of, standings
from games.services.tally import move_key
from games.standings import name_of
from games.summary import summarize
from games.views import _ensure_player

HISTORY_DAYS = 60


def _games():
    return [g for g in table_games() if g.playable]


def _day_url(daily: DailyDeal) -> str:
    return reverse("games:daily_day", kwargs={"game": daily.game, "day": daily.day.isoformat()})


def daily(request):
    """Today's deal of each game: play it (once), go on with it, or see how it went."""
    rows = []
    for gspec in _games():
        deal = services.deal_of(gspec.name)
        entry = entry_of(deal, request.user)
        mine = standings(deal, entry, top=0)["mine"] if entry and entry.finished_at else None
        seen = entry is None and services.has_seen(deal, request.user)
        rows.append(
            {
                "slug": gspec.name,
                "name": gspec.labels.name,
                "suits": gspec.labels.suits,
                "seats": len(deal.deal["hands"]),
                "players": deal.players,
                "entry": entry,
                "running": entry is not None
                and entry.finished_at is None
                and entry.table is not None
                and entry.table.is_active,
                "mine": mine,
                "seen": seen,
                "url": _day_url(deal),
            }
        )
    return render(
        request,
        "games/daily.html",
        {"rows": rows, "day": services.today(), "streak": services.streak(request.user)},
    )


@require_POST
def daily_start(request, game: str):
    """Sit down at today's deal of a game (as a guest, if need be)."""
    if game not in {g.name for g in _games()}:
        raise Http404
    if not _ensure_player(request):
        return redirect("games:daily")
    try:
        table = services.start_daily(request.user, game)
    except services.Refused as e:
        messages.error(request, refusal(e.code, e.params, game))
        return redirect("games:daily")
    return redirect("games:table", code=table.code)


def _deal_or_404(game: str, day: str) -> DailyDeal:
    try:
        when = date.fromisoformat(day)
    except ValueError:
        raise Http404 from None
    if game not in {g.name for g in _games()} or when > services.today():
        raise Http404
    found = DailyDeal.objects.filter(game=game, day=when).first()
    if found is None:
        if when != services.today():
            raise Http404  # nobody played that day's deal
        found = services.deal_of(game)
    return found


def daily_day(request, game: str, day: str):
    """One day's deal of a game: the standings; for a player who finished it, their place and
    how their decisions compare with everyone who reached the same position. Nobody sees
    anything of the play of today's deal before finishing it."""
    deal = _deal_or_404(game, day)
    entry = entry_of(deal, request.user)
    finished = entry is not None and entry.finished_at is not None
    is_today = deal.day == services.today()
    context = {
        "deal": deal,
        "label": table_game(game).labels.name,
        "is_today": is_today,
        "entry": entry,
        "finished": finished,
        "open": not is_today or finished or services.has_seen(deal, request.user),
        "may_see": services.may_see_played(deal, request.user),
        "running": entry is not None and not finished and entry.table is not None,
        "seen": entry is None and services.has_seen(deal, request.user),
    }
    if context["open"]:
        table = standings(deal, entry)
        for row in table["leaders"]:
            row["name"] = name_of(row["user"])
        context["standings"] = table
    else:
        context["standings"] = {"players": deal.players}
    if finished:
        rows = comparison(entry)
        context["comparison"] = rows
        context["differing"] = [r for r in rows if not r["same"]]
        context["agree"] = len(rows) - len(context["differing"])
    return render(request, "games/daily_day.html", context)


def daily_best(request, game: str, day: str):
    """The day's best result, move by move: for those who have played the deal, and for
    everyone once its day is over."""
    deal = _deal_or_404(game, day)
    if deal.best_entry is None or deal.best_entry.table is None:
        raise Http404
    if not services.may_see_played(deal, request.user):
        raise Http404
    if request.user.is_authenticated and entry_of(deal, request.user) is None:
        services.seen_played(deal, request.user)  # a past day's, seen without playing it
    table = deal.best_entry.table
    context = history.replay_context(table, 1, request.user)
    if context is None:
        raise Http404
    context["daily_best"] = {"url": _day_url(deal), "name": name_of(deal.best_entry.user)}
    return render(request, table_game(table.game).replay_template, context)


@require_POST
def daily_reveal(request, game: str, day: str):
    """See how today's best result was played without playing the deal: it cannot count for
    the player after that (asked for explicitly, on the day's page)."""
    deal = _deal_or_404(game, day)
    if not _ensure_player(request):
        return redirect(_day_url(deal))
    try:
        services.seen_played(deal, request.user)
    except services.Refused as e:
        messages.error(request, refusal(e.code, e.params, game))
        return redirect(_day_url(deal))
    return redirect("games:daily_best", game=game, day=deal.day.isoformat())


def daily_of_table(request, code):
    """From a deal of the day's table (its summary's link) to that day's standings."""
    table = Table.objects.filter(code=code).select_related("daily").first()
    if table is None or table.daily is None:
        raise Http404
    return redirect(_day_url(table.daily))


def daily_history(request):
    """Past days' deals, newest first, with the player's own result where they played."""
    past = list(
        DailyDeal.objects.filter(day__lt=services.today()).order_by("-day", "game")[
            : HISTORY_DAYS * 3
        ]
    )
    own = {}
    if request.user.is_authenticated:
        own = {
            e.daily_id: e
            for e in DailyEntry.objects.filter(
                user=request.user, daily__in=past, finished_at__isnull=False
            )
        }
    labels = {g.name: g.labels.name for g in table_games()}
    rows = [
        {"deal": d, "label": labels.get(d.game, d.game), "mine": own.get(d.pk), "url": _day_url(d)}
        for d in past
    ]
    return render(
        request,
        "games/daily_history.html",
        {"rows": rows, "streak": services.streak(request.user)},
    )


def comparison(entry: DailyEntry) -> list[dict]:
    """Each of the player's decisions that others also faced: what most of them played
    there, and how many played as the player did."""
    table = entry.table
    if table is None or table.current_hand_id is None:
        return []
    decided = reviews.decisions_of(table, 1, 0, table.current_hand_id) or []
    seqs = list(
        ActionLog.objects.filter(table=table, seat=0).order_by("seq").values_list("seq", flat=True)
    )
    gspec = table_game(table.game)
    names = summarize(table).names()
    rows = []
    for number, (seq, position, _decision) in enumerate(decided, start=1):
        if seq not in seqs:
            continue
        i = seqs.index(seq)
        if i >= len(entry.moves):
            continue
        counts = choices_at(entry.daily, entry.moves[:i])
        total = sum(counts.values())
        if total < COMPARED_FROM:
            continue
        mine = move_key(entry.moves[i])
        top = max(counts, key=lambda k: (counts[k], k == mine))
        rows.append(
            {
                "number": number,
                "note": gspec.review_note(position, names),
                "players": total,
                "mine": reviews.shown(entry.moves[i]),
                "mine_share": round(100 * counts.get(mine, 0) / total),
                "top": reviews.shown(json.loads(top)),
                "top_share": round(100 * counts[top] / total),
                "same": top == mine,
            }
        )
    return rows
