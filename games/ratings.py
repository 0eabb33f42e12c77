"""Ratings per game: OpenSkill's Plackett–Luce model over every finished match.

A match is rated once, when it ends (the services call ``rate`` under the table's row lock,
and ``RatedMatch`` is one row per table, so a second call for the same match changes nothing).
Every seat takes part: a signed-up player with their rating (updated), a guest with a new
player's (not kept: guests have no rating until they sign up), a computer player with the
fixed rating of its level. Places come from the match totals (higher is better; ties share a
place); a person who left the match before its end shares the last place, and the person who
resigned a match that has an end (the last person in it leaving, at a table for people) comes
after everyone still playing, before those who had left. A session without an end (Gan Deng
Yan) ended by its player is ranked by its totals, and rated only once a round of it was played.

The computer players' ratings are anchored on the measured ladder (``botmatch``: easy < normal
< hard in every game, each step with an interval above zero), so beating Hard counts for more
than beating Easy.

Shown: ``1000 + 40 × (μ − 25)``, which starts at 1000 and moves with every result: up after
a match that went better than the model expected, down after one that went worse. (It was the
cautious ``μ − 3σ``, which rose after a loss while σ shrank faster than μ fell: 1000 → 1028 for
third of four behind a Normal bot; players read that as a bug, as they would on lichess or
BGA.) A rating is provisional until σ falls to ``SETTLED_SIGMA`` (about five matches); the
leaderboards list settled ratings only, ranked by the figure shown. ``recompute`` replays every
rated match in order from the stored places and reaches exactly the ratings kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from django.contrib.auth import get_user_model
from django.db import transaction

from games.guests import is_guest
from games.models import RatedMatch, Rating, RatingChange, Table
from games.registry import table_game

BOT_RATINGS = {"easy": (18.0, 1.0), "normal": (25.0, 1.0), "hard": (29.0, 1.0)}
# σ starts at 25/3 ≈ 8.3; measured with the model against three computer players, it falls to
# 6.5 after three to five matches of results as expected, and after about nine of nothing but
# wins against Hard (a surprise keeps the model unsure).
SETTLED_SIGMA = 6.5


@cache
def model():
    from openskill.models import PlackettLuce

    return PlackettLuce()


def shown(mu: float) -> int:
    """The rating a player sees: 1000 for a new player, moving with each result."""
    return round(1000 + 40 * (mu - model().mu))


def settled(sigma: float) -> bool:
    """The model is sure enough of the player: the rating is no longer provisional."""
    return sigma <= SETTLED_SIGMA


def _is_rated_person(seat) -> bool:
    return seat.user is not None and seat.kind == seat.Kind.PERSON and not is_guest(seat.user)


def places(totals: list[int], last: Iterable[int], resigned: int | None = None) -> list[int]:
    """1-based places by total (higher first, ties share), the seats in ``last`` (those who
    left) after all; ``resigned``, the seat that ended the match early, after every seat still
    playing but before those who had left it already."""
    last = set(last)
    if resigned in last:
        resigned = None
    behind = last | ({resigned} if resigned is not None else set())
    staying = [totals[s] for s in range(len(totals)) if s not in behind]
    out = [
        0 if seat in behind else 1 + sum(1 for t in staying if t > total)
        for seat, total in enumerate(totals)
    ]
    above_last = len(staying) + 1
    bottom = above_last + (resigned is not None)
    out = [above_last if seat == resigned else p for seat, p in enumerate(out)]
    return [p if p else bottom for p in out]


def participants(table: Table, totals: list[int], resigned_by=None) -> list[dict] | None:
    """Who took part and their places, or None when the match is not rated."""
    if table.start:
        return None  # a deal played again: its player had seen every hand of it
    game = table_game(table.game)
    seats = sorted(table.seat_list, key=lambda s: s.index)
    left = {s.index for s in seats if s.left}
    resigned = resigned_by if game.info.match_end else None  # a session has no other end
    rated = [s for s in seats if _is_rated_person(s)]
    if not rated:
        return None
    if not game.info.match_end and not table.hands.filter(ended_at__isnull=False).exists():
        return None  # a session ended before its first round: nothing to rank
    order = places(totals, left, resigned)
    return [
        {
            "seat": s.index,
            "place": order[s.index],
            "user": s.user_id if _is_rated_person(s) else None,
            "level": (s.bot_level or table.level) if s.kind == s.Kind.BOT else None,
        }
        for s in seats
    ]


def _team(entry: dict, current: dict[int, tuple[float, float]]):
    m = model()
    if entry["user"] is not None:
        mu, sigma = current.get(entry["user"], (m.mu, m.sigma))
    elif entry["level"] is not None:
        mu, sigma = BOT_RATINGS.get(entry["level"], BOT_RATINGS["normal"])
    else:
        mu, sigma = m.mu, m.sigma  # a guest, or a seat whose player was deleted
    return [m.rating(mu=mu, sigma=sigma)]


def _update(entries: list[dict], current: dict[int, tuple[float, float]]):
    """The new (mu, sigma) of every rated user in ``entries``."""
    teams = [_team(e, current) for e in entries]
    result = model().rate(teams, ranks=[e["place"] for e in entries])
    return {
        e["user"]: (team[0].mu, team[0].sigma)
        for e, team in zip(entries, result, strict=True)
        if e["user"] is not None
    }


def rate(table: Table, totals: list[int], resigned_by: int | None = None) -> RatedMatch | None:
    """Rate a match that has just ended (inside the transaction that ended it)."""
    entries = participants(table, totals, resigned_by)
    if entries is None or RatedMatch.objects.filter(table=table).exists():
        return None
    users = [e["user"] for e in entries if e["user"] is not None]
    with transaction.atomic():
        match = RatedMatch.objects.create(table=table, game=table.game, places=entries)
        kept = {
            r.user_id: r
            for r in Rating.objects.select_for_update().filter(game=table.game, user_id__in=users)
        }
        current = {u: (r.mu, r.sigma) for u, r in kept.items()}
        m = model()
        for user, (mu, sigma) in _update(entries, current).items():
            before = current.get(user, (m.mu, m.sigma))
            rating = kept.get(user) or Rating(user_id=user, game=table.game)
            rating.mu, rating.sigma = mu, sigma
            rating.matches = (rating.matches or 0) + 1
            rating.save()
            RatingChange.objects.create(
                match=match,
                user_id=user,
                game=table.game,
                mu_before=before[0],
                sigma_before=before[1],
                mu=mu,
                sigma=sigma,
            )
    return match


def recompute(game: str) -> int:
    """Every rating of ``game`` again from the rated matches, in the order they were rated."""
    current: dict[int, tuple[float, float]] = {}
    counts: dict[int, int] = {}
    m = model()
    with transaction.atomic():
        matches = RatedMatch.objects.filter(game=game).order_by("rated_at", "id")
        for match in matches:
            changes = {c.user_id: c for c in match.changes.all()}
            for user, (mu, sigma) in _update(match.places, current).items():
                before = current.get(user, (m.mu, m.sigma))
                current[user] = (mu, sigma)
                counts[user] = counts.get(user, 0) + 1
                change = changes.get(user)
                if change is not None:
                    change.mu_before, change.sigma_before = before
                    change.mu, change.sigma = mu, sigma
                    change.save()
        Rating.objects.filter(game=game).exclude(user_id__in=current).delete()
        existing = set(get_user_model().objects.filter(pk__in=current).values_list("pk", flat=True))
        for user, (mu, sigma) in current.items():
            if user not in existing:
                continue  # deleted since: their matches still count for the others
            Rating.objects.update_or_create(
                user_id=user,
                game=game,
                defaults={"mu": mu, "sigma": sigma, "matches": counts[user]},
            )
    return len(current)
