"""Table pages, starting a match (as a player or straight in as a guest) and the history."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import select_template
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from cardsite import ratelimit
from cardsite.middleware import client_ip
from games import history, lessons, reviews, services, standings, views_live
from games.guests import GuestLimit, create_guest
from games.messages import refusal
from games.models import Table
from games.registry import table_game, table_games
from games.summary import summarize
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
    gspec = _playable(game)
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
    options = _posted_options(request, gspec)
    if not _ensure_player(request):
        return redirect("lobby")
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


def learn(request):
    """Learn to play: each game's guided first hand, with the player's finished ones marked."""
    done = services.finished_lessons(request.user)
    rows = [
        {
            "slug": g.name,
            "name": g.labels.name,
            "subtitle": g.labels.subtitle,
            "suits": g.labels.suits,
            "done": g.name in done,
            "steps": len(lessons.learner_steps(g.lesson)),
        }
        for g in table_games()
        if g.playable and g.lesson is not None
    ]
    return render(request, "games/learn.html", {"lessons": rows})


@require_POST
def start_lesson(request, game: str):
    """Begin (or go back to) a game's guided first hand, as a guest if need be."""
    gspec = _playable(game)
    if gspec.lesson is None:
        raise Http404
    if not _ensure_player(request):
        return redirect("games:learn")
    table = services.start_lesson(request.user, game)
    if request.htmx:
        return HttpResponseClientRedirect(reverse("games:table", kwargs={"code": table.code}))
    return redirect("games:table", code=table.code)


def _ensure_player(request) -> bool:
    """Sign a visitor without an account in as a new guest (False: too many guests)."""
    if request.user.is_authenticated:
        return True
    try:
        user = create_guest(client_ip(request), translation.get_language())
    except GuestLimit:
        messages.error(
            request,
            _("Too many guest games from your address. Please sign up or try again later."),
        )
        return False
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return True


def _posted_options(request, gspec) -> dict:
    return {
        key: _option(request.POST.get(key), values, gspec.info.default_options[key])
        for key, values in gspec.info.options.items()
    }


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


def _playable(game: str):
    try:
        gspec = table_game(game)
    except KeyError:
        raise Http404 from None
    if not gspec.playable:
        raise Http404
    return gspec


def timer_label(seconds: int) -> str:
    if not seconds:
        return _("off")
    if seconds < 60:
        return ngettext("%(n)d second", "%(n)d seconds", seconds) % {"n": seconds}
    return ngettext("%(n)d minute", "%(n)d minutes", seconds // 60) % {"n": seconds // 60}


# What the create-table form offers for each seat after the host's.
SEAT_CHOICES = ("person", "easy", "normal", "hard")


def new_table(request, game: str):
    """Create a table for people: each seat a person or a computer player, the game's
    options, watchers, the lobby listing and the turn timer."""
    gspec = _playable(game)
    counts = gspec.info.seat_counts
    if request.method == "POST":
        plan = ["person"]
        for i in range(1, max(counts)):
            choice = request.POST.get(f"seat{i}", "none")
            if choice not in SEAT_CHOICES:
                break
            plan.append(choice)
        try:
            timer = int(request.POST.get("timer") or 0)
        except ValueError:
            timer = -1
        if not _ensure_player(request):
            return redirect("lobby")
        try:
            table = services.create_shared_table(
                request.user,
                game,
                plan,
                _posted_options(request, gspec),
                spectators=request.POST.get("spectators") == "on",
                public=request.POST.get("public") == "on",
                turn_seconds=timer,
            )
        except services.Refused as e:
            messages.error(request, refusal(e.code, e.params, game))
            return redirect("games:new_table", game=game)
        return redirect("games:table", code=table.code)
    rows = [
        {"index": i, "optional": i >= min(counts), "default": "person" if i == 1 else "normal"}
        for i in range(1, max(counts))
    ]
    options_template = select_template([f"games/{game}/_options.html", "games/_no_options.html"])
    return render(
        request,
        "games/new_table.html",
        {
            "spec": gspec,
            "rows": rows,
            "levels": LEVEL_CHOICES,
            "timers": [(t, timer_label(t)) for t in services.TURN_TIMERS],
            "options": gspec.info.default_options,
            "options_template": options_template.template.name,
        },
    )


def invitation(request, token: str):
    """An invitation link: the table, its seats and "Take a seat" (as a guest if need be)."""
    try:
        table = services.find_invitation(token)
    except services.Refused as e:
        return render(
            request, "games/invitation.html", {"error": refusal(e.code, e.params)}, status=404
        )
    error = ""
    if request.method == "POST":
        if request.POST.get("decline") and request.user.is_authenticated:
            try:
                services.decline_seat(table.code, request.user)
            except services.Refused as e:
                messages.error(request, refusal(e.code, e.params, table.game))
            if request.htmx:  # "No, thanks" on the last match's board
                return HttpResponseClientRedirect(reverse("lobby"))
            return redirect("lobby")
        if not _ensure_player(request):
            return redirect("lobby")
        try:
            services.join_table(table.code, request.user)
        except services.Refused as e:
            error = refusal(e.code, e.params, table.game)
        else:
            return redirect("games:table", code=table.code)
        table = services.get_table(table.code)
    elif services.seat_of(table, request.user) is not None:
        return redirect("games:table", code=table.code)
    summary = summarize(table)
    reserved = request.user.is_authenticated and any(
        s.reserved_for_id == request.user.pk for s in table.seat_list
    )
    host = next((s.index for s in table.seat_list if s.user_id == table.owner_id), 0)
    kept = services.kept_for(table)  # a seat kept for the last match's player: their name
    return render(
        request,
        "games/invitation.html",
        {
            "table": summary,
            "model": table,
            "seats": [(s, kept.get(s.index, "")) for s in summary.seats],
            "spec": table_game(table.game),
            "host": next((s.name for s in summary.seats if s.index == host), ""),
            "free": sum(1 for s in table.seat_list if s.is_open),
            "reserved": reserved,
            "error": error,
        },
        status=409 if error else 200,
    )


# Codes tried per minute (the lobby's "Join a table" box): a person types a few; a script
# guessing among 32^6 codes tried 170 a second (findings 3.5). Per visitor and per address.
JOIN_CODES_PER_CLIENT = 10
JOIN_CODES_PER_ADDRESS = 30


def join_by_code(request):
    """The lobby's "Join a table" box: a short code leads to its invitation."""
    code = request.POST.get("code") if request.method == "POST" else request.GET.get("code")
    visitor = str(request.user.pk) if request.user.is_authenticated else request.session.session_key
    limits = [ratelimit.Limit.of("join-code-ip", client_ip(request), JOIN_CODES_PER_ADDRESS, 60)]
    if visitor:
        limits.append(ratelimit.Limit.of("join-code", visitor, JOIN_CODES_PER_CLIENT, 60))
    try:
        ratelimit.take(*limits)
    except ratelimit.Exceeded:
        messages.error(request, _("Too many codes tried: wait a minute before the next one."))
        return redirect(reverse("lobby") + "#join")
    try:
        table = services.find_short_code(code)
    except services.Refused as e:
        messages.error(request, refusal(e.code, e.params))
        return redirect(reverse("lobby") + "#join")
    return redirect("games:invitation", token=table.invite)


@login_required
def table_page(request, code):
    if request.method == "POST":
        return _play_again(request, code)
    table = _get_table_for_user(request, code)
    board = services.board(table, request.user)
    if not board.may_watch:
        return render(request, "games/not_yours.html", {"table": board.summary}, status=403)
    context = views_live.board_context(board, request.user)
    context["toast"] = ""
    context["board"] = views_live.board_html(table.game, context)
    return render(request, table_game(table.game).template, context)


def _play_again(request, code):
    """The "Play again" of a match of people that ended (posted through htmx from its
    board): the person goes to the new match with the same people, seated, in one click; the
    first to ask hosts it, each other person takes the seat kept for them."""
    try:
        table = services.play_again(code, request.user)
    except services.Refused as e:
        messages.error(request, refusal(e.code, e.params))
        target = reverse("games:table", kwargs={"code": code})
    else:
        target = reverse("games:table", kwargs={"code": table.code})
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@login_required
@require_POST
def resign(request, code):
    table = _get_table_for_user(request, code)
    try:
        after = services.resign(table.code, request.user)
    except services.Refused:
        raise Http404 from None
    if table.shared:
        if table.is_waiting:
            messages.info(request, _("You left the table before its match began."))
        elif after.status == Table.Status.RESIGNED:
            messages.info(
                request,
                _("You were the last person still in the match: it has ended there."),
            )
            return redirect("games:match", code=table.code)
        else:
            messages.info(
                request,
                _("You left the match: a computer player plays your seat until it ends."),
            )
        return redirect("lobby")
    messages.info(request, _("You resigned the match. It stays in your history."))
    return redirect("games:match", code=table.code)


@login_required
def my_matches(request):
    tables = (
        Table.objects.filter(seats__user=request.user, lesson__isnull=True)  # not a lesson
        .exclude(seed="", status__in=[Table.Status.FINISHED, Table.Status.RESIGNED])
        .prefetch_related("seats__user__profile", "hands")
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


def hand_review(request, code, number: int):
    """Hard's look at the player's own decisions in a finished hand: queued when first asked
    for (POST: again, after a failure), then kept; the page polls while it is made."""
    table = _get_table_for_user(request, code)
    seat = services.seat_of(table, request.user)
    if seat is None:
        raise Http404
    review = reviews.review_of(table, number, seat, again=request.method == "POST")
    if review is None:
        raise Http404
    if request.method == "POST":
        return redirect("games:review", code=table.code, number=number)
    context = reviews.context(table, review)
    template = "games/review.html#review-body" if request.htmx else "games/review.html"
    return render(request, template, context)


def player(request, pk: int):
    """A signed-up player's page: ratings per game with their course, matches and hands."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.select_related("profile").filter(pk=pk).first()
    if user is None or getattr(getattr(user, "profile", None), "is_guest", False):
        raise Http404
    context = standings.player_context(user)
    context["own"] = request.user.is_authenticated and request.user.pk == user.pk
    context["daily_streak"] = services.streak(user)
    return render(request, "games/player.html", context)


def leaderboard(request, game: str | None = None):
    """Each game's best players: signed-up, with a settled rating."""
    choices = standings.games()
    if game is None:
        game = choices[0].name
    if game not in {g.name for g in choices}:
        raise Http404
    return render(
        request,
        "games/leaderboard.html",
        {
            "game": game,
            "label": table_game(game).labels.name,
            "games": [(g.name, g.labels.name) for g in choices],
            "rows": standings.leaderboard(game),
        },
    )


@login_required
@require_POST
def same_deal(request, code, number: int):
    """Play a finished hand's deal again, at a new one-hand table (unrated)."""
    table = _get_table_for_user(request, code)
    seat = services.seat_of(table, request.user)
    again = history.deal_of_hand(table, number) if seat is not None else None
    if again is None:
        raise Http404
    try:
        new = services.create_same_deal_table(request.user, table, again, seat)
    except services.Refused as e:
        messages.error(request, refusal(e.code, e.params))
        return redirect("games:replay", code=table.code, number=number)
    return redirect("games:table", code=new.code)


def strength(request):
    """How strong the computer players are: each level against the next, as measured."""
    context = standings.strength()
    levels = {**dict(LEVEL_CHOICES), "random": _("Random")}
    for game in context["games"]:
        for row in game["rows"]:
            row["hero_label"] = levels.get(row["hero"], row["hero"])
            row["villain_label"] = levels.get(row["villain"], row["villain"])
        for row in game["outside"]:
            row["level_label"] = levels.get(row["level"], row["level"])
    return render(request, "games/strength.html", context)
