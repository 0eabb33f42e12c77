"""Site-wide pages: the lobby and the error pages."""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

# The lobby's cards. ``table`` names the URL of a game's table once it exists; until then the
# card says so instead of linking nowhere.
GAMES = [
    {
        "slug": "gongzhu",
        "name": _("Gong Zhu"),
        "subtitle": _("Chase the Pig"),
        "players": _("4 players"),
        "blurb": _(
            "Trick-taking for four: dodge the hearts and the pig, catch the goat, and "
            "watch the transformer double everything. Matches run until someone drops to −1000."
        ),
        "suits": "♠♥",
        "table": None,
    },
    {
        "slug": "gandengyan",
        "name": _("Gan Deng Yan"),
        "subtitle": _("Staring Eyes"),
        "players": _("2–4 players"),
        "blurb": _(
            "Beat the last play with the same shape exactly one rank higher, or stare. "
            "Wild jokers, bombs and a stock that refills the hands; losses multiply up to 64×."
        ),
        "suits": "♦♣",
        "table": None,
    },
    {
        "slug": "doudizhu",
        "name": _("Dou Dizhu"),
        "subtitle": _("Fight the Landlord"),
        "players": _("3 players"),
        "blurb": _(
            "Bid to become the landlord and play alone with 20 cards against two peasants. "
            "Chains, airplanes, bombs and the rocket."
        ),
        "suits": "♥♠",
        "table": None,
    },
]


def lobby(request):
    from games.gameplay import SPECS
    from games.models import LEVEL_CHOICES, Table

    running = {}
    if request.user.is_authenticated:
        for table in Table.objects.filter(
            seats__user=request.user, status=Table.Status.ACTIVE
        ).order_by("-updated_at"):
            running.setdefault(table.game, table)
    cards = [
        {
            **g,
            "playable": g["slug"] in SPECS and SPECS[g["slug"]].playable,
            "has_setup": g["slug"] in SPECS and SPECS[g["slug"]].has_setup,
            "running": running.get(g["slug"]),
        }
        for g in GAMES
    ]
    return render(request, "lobby.html", {"games": cards, "levels": LEVEL_CHOICES})


def error_404(request, exception=None):
    return render(request, "errors/404.html", status=404)


def error_403(request, exception=None):
    return render(request, "errors/403.html", status=403)


def error_500(request):
    try:
        return render(request, "errors/500.html", status=500)
    except Exception:  # noqa: BLE001 - the error may be the database itself
        from django.http import HttpResponseServerError

        return HttpResponseServerError(
            "<!DOCTYPE html><title>500</title><h1>Server error / Serverfehler</h1>"
        )


def csrf_failure(request, reason=""):
    return render(request, "errors/403_csrf.html", status=403)
