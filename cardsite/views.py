"""Site-wide pages: the lobby and the error pages."""

from __future__ import annotations

from django.shortcuts import render


def lobby(request):
    from games.models import Table
    from games.registry import table_games
    from games.services import finished_lessons, streak
    from games.tables.common import LEVEL_CHOICES
    from games.views_live import open_tables

    running = {}
    played = False
    if request.user.is_authenticated:
        for table in Table.objects.filter(
            seats__user=request.user, status=Table.Status.ACTIVE, lesson__isnull=True
        ).order_by("-updated_at"):
            running.setdefault(table.game, table)
        played = (
            bool(running)
            or Table.objects.filter(seats__user=request.user, lesson__isnull=True)
            .exclude(seed="")
            .exists()
        )
    learned = finished_lessons(request.user)
    cards = [
        {
            "slug": g.name,
            "name": g.labels.name,
            "subtitle": g.labels.subtitle,
            "players": g.labels.players,
            "blurb": g.labels.blurb,
            "suits": g.labels.suits,
            "playable": g.playable,
            "has_setup": g.has_setup,
            "running": running.get(g.name),
            "lesson": g.lesson is not None and g.playable,
            "learned": g.name in learned,
        }
        for g in table_games()
    ]
    return render(
        request,
        "lobby.html",
        {
            "games": cards,
            "levels": LEVEL_CHOICES,
            "open_tables": open_tables(),
            # A first visit (nothing played yet): learning to play comes first.
            "newcomer": not played and any(c["lesson"] for c in cards),
            "streak": streak(request.user),
        },
    )


def error_404(request, exception=None):
    return render(request, "errors/404.html", status=404)


def error_403(request, exception=None):
    return render(request, "errors/403.html", status=403)


def error_500(request):
    import sys

    from cardsite.busy import DATABASE_ERRORS, busy_response

    if isinstance(sys.exc_info()[1], DATABASE_ERRORS):
        # The database failed outside a view (a middleware's session read or save): the
        # busy page, as cardsite.busy.DatabaseAway answers one inside a view.
        return busy_response(request)
    try:
        return render(request, "errors/500.html", status=500)
    except Exception:  # noqa: BLE001 - the error may be the database itself
        from django.http import HttpResponseServerError

        return HttpResponseServerError(
            "<!DOCTYPE html><title>500</title><h1>Server error / Serverfehler</h1>"
        )


def csrf_failure(request, reason=""):
    return render(request, "errors/403_csrf.html", status=403)
