"""How players stand: a player's page (ratings per game with their course, matches, hands) and
each game's leaderboard, from the ratings (games/ratings.py). Only finished matches are ever
rated, so nothing here says anything about a match in progress."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from django.db.models import Count

from games import ratings
from games.models import Hand, Rating, RatingChange, Seat, Table
from games.registry import table_games

CHART_W, CHART_H, PAD = 420, 170, 40


def games() -> list:
    return [g for g in table_games() if g.playable]


def rating_chart(values: list[int]) -> dict | None:
    """An SVG line of the shown rating after each rated match (the start included)."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    step = next((s for s in (10, 25, 50, 100, 250) if (high - low) <= s * 6), 500)
    low, high = (low // step) * step, -(-high // step) * step
    if high == low:
        high = low + step
    span_x = len(values) - 1

    def x(i):
        return PAD + (CHART_W - 1.5 * PAD) * i / span_x

    def y(v):
        return PAD / 2 + (CHART_H - PAD) * (high - v) / (high - low)

    return {
        "width": CHART_W,
        "height": CHART_H,
        "left": PAD,
        "right": CHART_W - PAD // 2,  # an integer: a float would be printed "400,0" in German
        "points": " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values)),
        "grid": [{"y": f"{y(v):.1f}", "label": v} for v in range(low, high + 1, step)],
        "last": {"x": f"{x(span_x):.1f}", "y": f"{y(values[-1]):.1f}"},
    }


def player_context(user) -> dict:
    """A player's page: per playable game, the rating and its course, matches and hands."""
    m = ratings.model()
    kept = {r.game: r for r in Rating.objects.filter(user=user)}
    changes: dict[str, list] = {}
    for c in RatingChange.objects.filter(user=user).order_by("match__rated_at", "match_id"):
        changes.setdefault(c.game, []).append(c)
    played = dict(
        Table.objects.filter(
            seats__user=user, seats__kind="person", replay_of__isnull=True, lesson__isnull=True
        )
        .exclude(seed="")
        .values_list("game")
        .annotate(n=Count("id", distinct=True))
    )
    seats = {
        table: (index, game)
        for table, index, game in Seat.objects.filter(
            user=user, kind=Seat.Kind.PERSON, table__lesson__isnull=True
        )
        .exclude(table__seed="")
        .values_list("table_id", "index", "table__game")
    }
    played_hands: dict[str, list] = {}
    for table, breakdown in Hand.objects.filter(
        table_id__in=seats, ended_at__isnull=False
    ).values_list("table_id", "breakdown"):
        index, game = seats[table]
        if breakdown:
            played_hands.setdefault(game, []).append((breakdown, index))
    rows = []
    for game in games():
        rating = kept.get(game.name)
        course = changes.get(game.name, [])
        values = [ratings.shown(m.mu)] + [ratings.shown(c.mu) for c in course]
        rows.append(
            {
                "game": game.name,
                "label": game.labels.name,
                "rating": ratings.shown(rating.mu) if rating else None,
                "provisional": rating is not None and not ratings.settled(rating.sigma),
                "rated": rating.matches if rating else 0,
                "rank": _rank(game.name, rating),
                "matches": played.get(game.name, 0),
                "hands": len(played_hands.get(game.name, [])),
                "facts": game.facts(played_hands.get(game.name, [])),
                "chart": rating_chart(values),
                "deal_word": game.info.deal_word,
            }
        )
    return {"player": user, "name": name_of(user), "rows": rows}


def name_of(user) -> str:
    profile = getattr(user, "profile", None)  # an account made without the site's forms has none
    return profile.name if profile is not None else user.get_username()


def _board(game: str):
    """The game's leaderboard, best first: signed-up players whose rating has settled, by
    the figure that is shown (μ)."""
    return (
        Rating.objects.filter(game=game, sigma__lte=ratings.SETTLED_SIGMA)
        .exclude(user__profile__is_guest=True)
        .order_by("-mu", "user_id")
    )


def _rank(game: str, rating: Rating | None) -> int | None:
    """The place on the game's leaderboard, for a player who is on it (ties share it)."""
    if rating is None or not ratings.settled(rating.sigma):
        return None
    # Ahead: the ratings shown higher, round(1000 + 40 (μ − 25)) > shown.
    above = ratings.model().mu + (ratings.shown(rating.mu) + 0.5 - 1000) / 40
    return 1 + _board(game).filter(mu__gte=above).count()


def leaderboard(game: str, limit: int = 100) -> list[dict]:
    rows = []
    for i, r in enumerate(_board(game).select_related("user__profile")[:limit]):
        figure = ratings.shown(r.mu)
        # Players with the same figure share a place (1, 2, 2, 4).
        place = rows[-1]["place"] if rows and rows[-1]["rating"] == figure else i + 1
        rows.append(
            {
                "place": place,
                "user": r.user,
                "name": name_of(r.user),
                "rating": figure,
                "matches": r.matches,
            }
        )
    return rows


STRENGTH_FILE = Path(__file__).resolve().parent / "strength.json"


def strength() -> dict:
    """The computer players' measured strength (games/strength.json, written by
    ``manage.py strength`` from botmatch's and rlcardmatch's results), grouped by game: the
    ladder between the levels and the matches against outside programs."""
    try:
        data = json.loads(STRENGTH_FILE.read_text())
    except (OSError, ValueError):
        data = {"rows": []}
    by_game = []
    for game in games():
        rows = [r for r in data.get("rows", []) if r.get("game") == game.name]
        outside = [r for r in data.get("outside", []) if r.get("game") == game.name]
        by_game.append(
            {
                "game": game.name,
                "label": game.labels.name,
                "rows": rows,
                "outside": outside,
                # a figure per number of players, so each row says its count
                "by_seats": game.seat_counts_vary,
            }
        )
    try:
        measured = date.fromisoformat(data.get("measured") or "")
    except ValueError:
        measured = None
    return {"games": by_game, "measured": measured}
