"""Recording a finished match (each player's result, the ratings), and reading standings back.

`record_many` records each finished match once however many processes hear
of the finish (backend/matches/signals.py): its transaction first claims the
matches (store.claim_recordings, a conditional UPDATE of the match rows) and
writes results only for the ones it claimed, so a rating moves once.  Rating
rows are locked in one order: two transactions with common players queue
instead of deadlocking.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Prefetch, Q
from django.utils.translation import gettext as _

from backend.accounts.models import fold
from backend.common.errors import AppError
from backend.engines import get_engine
from backend.matches import seating, store
from backend.matches import services as matches
from backend.matches.models import Match, MatchSeat

from . import elo
from .models import FEW_MOVES, Rating, Result

HISTORY = 60  # rated matches per game the profile's chart shows
RECENT = 20  # matches the profile lists
PAGE = 50  # leaderboard rows per page


# ---- recording ---------------------------------------------------------------
def on_match_finished(sender, match_ids: list[int], **kwargs) -> None:
    record_many(match_ids)


def forfeits(finish: store.Finish) -> set[int]:
    """Seats that resigned, or were ever handed to the bot because their player's time ran out or they were away."""
    return set(seating.resigned(finish.control)) | finish.away


def standings(finish: store.Finish, forfeited: set[int]) -> list[int]:
    """Each seat's place (elo.places): winners from the match's result; scores
    and the game's tie-breaks from the engine's own result when the game ran
    to its end (resignations alone can end it earlier: then every seat still in
    is a winner)."""
    engine = get_engine(finish.game)
    own = engine.result(finish.state) if engine.is_over(finish.state) else {}
    winners = (finish.result or {}).get("winners", [])
    return elo.places(len(finish.users), winners, own.get("scores"), own.get("ranking"), forfeited)


def is_ratable(finish: store.Finish) -> bool:
    return finish.rated and None not in finish.users and len(set(finish.users)) >= 2


def unrated_reason(finish: store.Finish) -> str:
    """Why a ratable match moves no rating ("" when it does): a player made too few moves of their own, so
    a result given away at once (the second account resigning at the start) is worth nothing."""
    if any(moves < settings.RATING_MIN_MOVES for moves in finish.own_moves):
        return FEW_MOVES
    return ""


def moves_ratings(finish: store.Finish) -> bool:
    return is_ratable(finish) and not unrated_reason(finish)


def record(match_id: int) -> bool:
    """Record a finished match's results and rating changes; False if it was
    not finished or already recorded (by this or another process)."""
    return record_many([match_id]) == 1


def record_many(match_ids: list[int]) -> int:
    """Record the finished matches among `match_ids` that nobody recorded yet, in
    one transaction and a few statements however many they are; how many.  A
    player in several of them moves match by match, in id order."""
    with transaction.atomic():
        finishes = store.claim_recordings(match_ids)
        rating = [f for f in finishes if moves_ratings(f)]
        ratings = _locked_ratings(rating)
        met = _Meetings(rating)
        results = []
        for finish in finishes:
            results += _results(finish, ratings, met)
        Result.objects.bulk_create(results)
        if ratings:
            Rating.objects.bulk_update(list(ratings.values()), ["value", "matches", "wins", "updated_at"])
    return len(finishes)


def _results(finish: store.Finish, ratings: dict, met: _Meetings) -> list[Result]:
    """One finish's rows (moving `ratings`, locked, if it moves ratings)."""
    users = finish.users
    if not any(users):
        return []
    forfeited = forfeits(finish)
    places = standings(finish, forfeited)
    # First place, and no forfeit: a winner whose seat the bot played after their time ran out did not win.
    won = [places[seat] == 1 and seat not in forfeited for seat in range(len(users))]
    reason = unrated_reason(finish) if is_ratable(finish) else ""
    rated = is_ratable(finish) and not reason
    before = after = [None] * len(users)
    if rated:
        before, after = _rate(finish.game, users, places, won, ratings, met.weights(finish))
        met.add(finish)
    results, seen = [], set()
    for seat, user in enumerate(users):
        if user is None or user in seen:
            continue  # a bot; or a second seat of one user (only unrated matches allow it)
        seen.add(user)
        results.append(Result(match_id=finish.id, user_id=user, game=finish.game, seat=seat, place=places[seat],
                              players=len(users), won=won[seat], forfeit=seat in forfeited, rated=rated,
                              unrated_reason=reason, rating_before=before[seat], rating_after=after[seat],
                              finished_at=finish.finished_at))
    return results


def _locked_ratings(finishes: list[store.Finish]) -> dict:
    """{(user, game): Rating} of every player of `finishes`, made if new and
    locked in one order (user, game): two transactions with common players
    queue instead of deadlocking."""
    if not finishes:
        return {}
    keys = sorted({(u, f.game) for f in finishes for u in f.users})
    Rating.objects.bulk_create([Rating(user_id=u, game=g) for u, g in keys], ignore_conflicts=True)
    wanted = Q()
    for game in sorted({g for _, g in keys}):
        wanted |= Q(game=game, user_id__in=[u for u, g in keys if g == game])
    return {(r.user_id, r.game): r for r in Rating.objects.select_for_update().filter(wanted).order_by("user_id", "game")}


class _Meetings:
    """The rated matches the players of a batch finished together lately, for the weight of each pair's game
    (elo.repeat_weight): read in one statement per batch, then kept up as the batch's own matches are rated."""

    def __init__(self, finishes: list[store.Finish]):
        self.window = timedelta(hours=settings.RATING_REPEAT_WINDOW_H)
        self.matches: dict[int, tuple[str, object, set]] = {}  # match: (game, finished_at, its users)
        if not finishes or not self.window:
            return
        rows = Result.objects.filter(
            rated=True, game__in={f.game for f in finishes}, user_id__in={u for f in finishes for u in f.users},
            finished_at__gte=min(f.finished_at for f in finishes) - self.window,
        ).values_list("match_id", "game", "finished_at", "user_id")
        for match_id, game, finished_at, user_id in rows:
            self.matches.setdefault(match_id, (game, finished_at, set()))[2].add(user_id)

    def add(self, finish: store.Finish) -> None:
        self.matches[finish.id] = (finish.game, finish.finished_at, set(finish.users))

    def weights(self, finish: store.Finish) -> list[list[float]] | None:
        if not self.window:  # RATING_REPEAT_WINDOW_H=0: every result counts fully
            return None
        users, since = finish.users, finish.finished_at - self.window
        recent = [together for match_id, (game, at, together) in self.matches.items()
                  if game == finish.game and since <= at <= finish.finished_at and match_id != finish.id]
        return [[elo.repeat_weight(sum(1 for together in recent if {a, b} <= together), settings.RATING_REPEAT_FULL)
                 for b in users] for a in users]


def _rate(game: str, users: tuple, places: list[int], won: list[bool], ratings: dict, weights):
    """Ratings before and after, per seat (every seat a different user: is_ratable); moves `ratings`."""
    before = [ratings[u, game].value for u in users]
    deltas = elo.changes(before, places, weights=weights)
    after = [b + d for b, d in zip(before, deltas)]
    for seat, user in enumerate(users):
        rating = ratings[user, game]
        rating.value = after[seat]
        rating.matches += 1
        rating.wins += won[seat]
    return before, after


def record_pending(limit: int = 200) -> int:
    """Record finished matches nobody recorded (matches older than this app, or a process that died); how many."""
    return record_many(list(Match.objects.filter(status=Match.Status.FINISHED, recorded_at__isnull=True)
                            .order_by("finished_at").values_list("pk", flat=True)[:limit]))


# ---- reading -------------------------------------------------------------------
def _rounded(value):
    return None if value is None else round(value)


def _user_ref(user) -> dict:
    return {"id": user.pk, "username": user.username}


def _iso(when) -> str | None:
    return None if when is None else when.isoformat().replace("+00:00", "Z")


def profile(name: str) -> dict:
    """A player's page: per game played, won, rating, place on the leaderboard
    and rating history; their recent public matches.  A bounded number of
    queries: one per game with a rating, plus five."""
    user = get_user_model().objects.filter(username_key=fold(name), is_active=True).first()
    if user is None:
        raise AppError("not_found", _("There is no such player."))
    totals = {row["game"]: row for row in Result.objects.filter(user=user).values("game").annotate(
        played=Count("id"), won=Count("id", filter=Q(won=True)))}
    ratings = {r.game: r for r in Rating.objects.filter(user=user)}
    games = []
    for game in sorted(set(totals) | set(ratings)):
        rating = ratings.get(game)
        entry = {"game": game, "played": totals.get(game, {}).get("played", 0),
                 "won": totals.get(game, {}).get("won", 0), "rating": None, "rated_matches": 0, "rank": None,
                 "history": []}
        if rating is not None:
            history = list(Result.objects.filter(user=user, game=game, rated=True).order_by("-finished_at", "-match_id")
                           .values_list("finished_at", "rating_before", "rating_after")[:HISTORY])[::-1]
            entry.update(rating=_rounded(rating.value), rated_matches=rating.matches,
                         rank=1 + Rating.objects.filter(game=game).filter(
                             Q(value__gt=rating.value) | Q(value=rating.value, user_id__lt=user.pk)).count(),
                         start=_rounded(history[0][1]) if history else None,
                         history=[{"at": _iso(at), "rating": _rounded(after)} for at, _b, after in history])
        games.append(entry)
    seats = Prefetch("match__seats", queryset=MatchSeat.objects.select_related("user").order_by("seat"))
    recent = []
    for r in (Result.objects.filter(user=user, match__public=True).select_related("match").prefetch_related(seats)
              .order_by("-finished_at", "-match_id")[:RECENT]):
        recent.append({
            "match": r.match_id, "game": r.game, "finished_at": _iso(r.finished_at), "place": r.place,
            "players": r.players, "won": r.won, "forfeit": r.forfeit, "rated": r.rated,
            "unrated_reason": r.unrated_reason or None,
            "rating_before": _rounded(r.rating_before), "rating_after": _rounded(r.rating_after),
            "scores": (r.match.result or {}).get("scores"), "seat": r.seat,
            "seats": [{"seat": s.seat, "user": _user_ref(s.user) if s.user_id else None, "bot": s.bot or None}
                      for s in r.match.seats.all()],
        })
    return {"user": _user_ref(user), "joined": _iso(user.date_joined), "games": games, "recent": recent}


def leaderboard(game: str, page: int) -> dict:
    """One page of a game's ratings, best first (level ratings: the earlier account first)."""
    try:
        get_engine(game)
    except (KeyError, ImportError, AttributeError):
        raise AppError("not_found", _("There is no game called %(game)r.") % {"game": game}) from None
    if page < 1:
        raise AppError("bad_message", _("The page must be 1 or more."))
    rows = Rating.objects.filter(game=game)
    count = rows.count()
    first = (page - 1) * PAGE
    results = [{"rank": first + i + 1, "user": _user_ref(r.user), "rating": _rounded(r.value), "matches": r.matches,
                "wins": r.wins}
               for i, r in enumerate(rows.select_related("user").order_by("-value", "user_id")[first:first + PAGE])]
    return {"game": game, "count": count, "page": page, "page_size": PAGE,
            "pages": max(1, -(-count // PAGE)), "results": results}


def match_ratings(match_id: int, user) -> dict:
    """How a finished match moved its players' ratings, for its result card: each
    seat's rating before and after and the change between the two as shown
    (rounded first, so that before + change = after on the screen).  `recorded`
    stays false until the finish is recorded (a moment after it: docs/ratings.md)."""
    match = matches.visible_match(match_id, user)
    owners = {s.seat: s.user for s in match.seats.all()}
    seats = []
    for r in Result.objects.filter(match=match).order_by("seat"):
        before, after = _rounded(r.rating_before), _rounded(r.rating_after)
        seats.append({"seat": r.seat, "user": _user_ref(owners[r.seat]), "place": r.place, "won": r.won,
                      "forfeit": r.forfeit, "rating_before": before, "rating_after": after,
                      "change": None if before is None or after is None else after - before})
    return {"match": match.pk, "rated": match.rated, "recorded": match.recorded_at is not None, "seats": seats}
