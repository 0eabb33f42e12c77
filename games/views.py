"""Table pages, starting a match (as a player or straight in as a guest) and the history."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from cardsite.middleware import client_ip
from games import history, services, views_live
from games.guests import GuestLimit, create_guest
from games.messages import refusal
from games.models import Table
from games.registry import table_game
from games.tables.common import LEVEL_CHOICES


def _get_table_for_user(request, code) -> Table:
    try:
        table = services.get_table(code)
    except services.Refused as e:
        raise Http404 from e
    return table


def play_now(request, game: str):
    """Start a match; a visitor without an account gets a guest account first.

    A game with table settings (players, options) shows them first (GET); the form posts here.
    """
    try:
        gspec = table_game(game)
    except KeyError:
        raise Http404 from None
    if not gspec.playable:
        raise Http404
    if request.method != "POST":
        if not gspec.has_setup:
            return redirect(reverse("lobby") + f"#{game}")
        return render(request, gspec.setup_template, _setup_context(request, gspec))
    level = request.POST.get("level", "normal")
    if level not in services.LEVELS:
        level = "normal"
    try:
        seats = int(request.POST.get("seats") or gspec.info.default_seats)
    except ValueError:
        seats = gspec.info.default_seats
    options = {
        key: _option(request.POST.get(key), values, gspec.info.default_options[key])
        for key, values in gspec.info.options.items()
    }
    if not request.user.is_authenticated:
        try:
            user = create_guest(client_ip(request), translation.get_language())
        except GuestLimit:
            messages.error(
                request,
                _("Too many guest games from your address. Please sign up or try again later."),
            )
            return redirect("lobby")
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    try:
        table = services.create_table(
            request.user,
            game,
            level,
            options=options,
            seats=seats,
            replaces=request.POST.get("replaces"),
        )
    except services.Refused as e:
        messages.error(request, refusal(e.code, e.params, game))
        return redirect("lobby")
    if request.htmx:
        return HttpResponseClientRedirect(reverse("games:table", kwargs={"code": table.code}))
    return redirect("games:table", code=table.code)


def _option(posted, values, default):
    """A posted option as the engine's value (a form sends text: "5" for 5), or the default."""
    if posted is None:
        return default
    for value in values:
        if str(value) == posted:
            return value
    return posted  # not offered: create_table refuses it


def _setup_context(request, gspec) -> dict:
    """The settings screen before the first round, prefilled from the session it replaces."""
    current = None
    code = request.GET.get("replaces")
    if code and request.user.is_authenticated:
        try:
            current = services.get_table(code)
        except services.Refused:
            current = None
        if current is not None and services.seat_of(current, request.user) is None:
            current = None
    return {
        "spec": gspec,
        "seat_counts": gspec.info.seat_counts,
        "seats": current.seats.count() if current else gspec.info.default_seats,
        "options": current.options if current else gspec.info.default_options,
        "level": current.level if current else "normal",
        "levels": LEVEL_CHOICES,
        "replaces": current,
    }


@login_required
def table_page(request, code):
    table = _get_table_for_user(request, code)
    context = views_live.board_context(table, request.user)
    context["toast"] = ""
    return render(request, table_game(table.game).template, context)


@login_required
@require_POST
def resign(request, code):
    table = _get_table_for_user(request, code)
    try:
        services.resign(table.code, request.user)
    except services.Refused:
        raise Http404 from None
    messages.info(request, _("You resigned the match. It stays in your history."))
    return redirect("games:match", code=table.code)


@login_required
def my_matches(request):
    tables = (
        Table.objects.filter(seats__user=request.user)
        .prefetch_related("seats", "hands")
        .order_by("-updated_at")
    )
    rows = [history.match_row(t, request.user) for t in tables]
    return render(request, "games/my_matches.html", {"rows": rows})


@login_required
def match_page(request, code):
    table = _get_table_for_user(request, code)
    if services.seat_of(table, request.user) is None:
        raise Http404
    return render(request, "games/match.html", history.match_context(table, request.user))


@login_required
def hand_replay(request, code, number: int):
    table = _get_table_for_user(request, code)
    if services.seat_of(table, request.user) is None:
        raise Http404
    context = history.replay_context(table, number, request.user)
    if context is None:
        raise Http404
    return render(request, table_game(table.game).replay_template, context)
