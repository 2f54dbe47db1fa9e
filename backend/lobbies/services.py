"""Lobby operations. Each mutation runs in one transaction that first locks the
lobby row, and schedules the live broadcast for after the commit. Reading and
changing a lobby first expire idle ones (expiry.py)."""

from __future__ import annotations

import functools
import random
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from backend.common import ratelimit
from backend.common.errors import AppError
from backend.engines import Engine, get_engine
from backend.games.catalog import display_name
from backend.matches import clock
from backend.matches.models import Match, MatchSeat
from backend.notifications.models import REMATCH, enqueue

from . import broadcast, expiry
from .models import Lobby, LobbySeat
from .presenters import with_relations

MAX_LISTED = 200


# ---- reading ---------------------------------------------------------------
def open_public_lobbies():
    expiry.expire_idle()
    return with_relations(Lobby.objects.filter(status=Lobby.Status.OPEN, private=False))[:MAX_LISTED]


def my_open_lobbies(user):
    expiry.expire_idle()
    return with_relations(
        Lobby.objects.filter(status=Lobby.Status.OPEN, seats__user=user).distinct()
    )[:MAX_LISTED]


def load(lobby_id: int) -> Lobby:
    """The lobby with host and seats, no permission check (for answering someone who just acted)."""
    return with_relations(Lobby.objects).get(pk=lobby_id)


def is_member(lobby: Lobby, user) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return lobby.host_id == user.pk or any(seat.user_id == user.pk for seat in lobby.seats.all())


def code_matches(lobby: Lobby, code: str | None) -> bool:
    return same_code(lobby.invite_code, code)


def same_code(invite_code: str | None, code: str | None) -> bool:
    # compare_digest refuses str with non-ASCII characters: compare bytes, so an
    # odd code (é, a lone surrogate) is simply wrong instead of a server error.
    return (bool(invite_code) and isinstance(code, str)
            and secrets.compare_digest(code.encode("utf-8", "surrogatepass"), invite_code.encode("utf-8")))


def was_kicked(lobby: Lobby, user) -> bool:
    return user is not None and user.is_authenticated and lobby.kicked.filter(pk=user.pk).exists()


def kicked_message() -> str:
    return _("The host removed you from this lobby.")


def played_rematched_match(lobby: Lobby, user) -> bool:
    """A player of the match this lobby is the rematch of: needs no invite code."""
    return (lobby.rematch_of is not None and user is not None and user.is_authenticated
            and MatchSeat.objects.filter(match_id=lobby.rematch_of, user=user).exists())


def can_view(lobby: Lobby, user, code: str | None = None) -> bool:
    """A private lobby: its members, whoever has the code, the players of the match it rematches; never
    a user its host kicked (kicking also changes the code, which the kicked user knows: see kick)."""
    if not lobby.private:
        return True
    return (is_member(lobby, user) or code_matches(lobby, code) or played_rematched_match(lobby, user)) \
        and not was_kicked(lobby, user)


def get_lobby(lobby_id: int, user, code: str | None = None) -> Lobby:
    """The lobby if this viewer may see it; private ones need a seat or the invite code."""
    expiry.expire_idle(lobby_id)
    lobby = with_relations(Lobby.objects).filter(pk=lobby_id).first()
    if lobby is None:
        raise AppError("not_found", _("There is no such lobby."))
    if not can_view(lobby, user, code):
        if lobby.private and was_kicked(lobby, user):
            raise AppError("forbidden", kicked_message())
        raise AppError("forbidden", _("This lobby is private; you need its invite code."))
    return lobby


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


# ---- checks ----------------------------------------------------------------
def _engine(game_id) -> Engine:
    try:
        return get_engine(game_id)
    except (KeyError, ImportError, AttributeError):
        raise AppError("bad_message", _("There is no game called %(game)r.") % {"game": game_id},
                       fields={"game": [_("Unknown game.")]}) from None


def validate_setup(engine: Engine, options, num_seats) -> dict:
    """Options as the engine fills them in; test hooks (stacked decks) are not for players."""
    hooks = sorted(k for k in (options or {}) if engine.options_schema.get(k, {}).get("test_hook"))
    if hooks:
        message = _("Unknown option(s) for %(game)s: %(options)s.") % {"game": display_name(engine), "options": ", ".join(hooks)}
        raise AppError("bad_message", message, fields={"options": hooks})
    try:
        options = engine.validate_options(options)
    except ValueError as exc:
        raise AppError("bad_message", str(exc), fields={"options": [str(exc)]}) from None
    if not isinstance(num_seats, int) or isinstance(num_seats, bool) or not engine.min_players <= num_seats <= engine.max_players:
        if engine.min_players == engine.max_players:
            message = ngettext("%(game)s needs exactly %(count)d seat.", "%(game)s needs exactly %(count)d seats.",
                               engine.min_players) % {"game": display_name(engine), "count": engine.min_players}
        else:
            message = _("%(game)s needs %(min)d to %(max)d seats.") % {
                "game": display_name(engine), "min": engine.min_players, "max": engine.max_players}
        raise AppError("bad_message", message, fields={"num_seats": [message]})
    return options


def validate_time_control(value) -> dict:
    """The time control with defaults (None: untimed); bad_message naming the field otherwise."""
    try:
        return clock.validate(value)
    except clock.TimeControlError as exc:
        message = _(exc.template) % exc.params
        fields = {"time_control": {exc.field: [message]} if exc.field else [message]}
        raise AppError("bad_message", message, fields=fields) from None


def _locked(lobby_id: int) -> Lobby:
    lobby = Lobby.objects.select_for_update().filter(pk=lobby_id).first()
    if lobby is None:
        raise AppError("not_found", _("There is no such lobby."))
    return lobby


def _require_open(lobby: Lobby) -> None:
    if lobby.status == Lobby.Status.EXPIRED:
        raise AppError("conflict", expiry.expired_message())
    if lobby.status == Lobby.Status.STARTED:
        raise AppError("conflict", _("This lobby has started."))
    if lobby.status != Lobby.Status.OPEN:
        raise AppError("conflict", _("This lobby is closed."))


def _require_host(lobby: Lobby, user) -> None:
    if lobby.host_id != user.pk:
        raise AppError("forbidden", _("Only the host may do that."))


def _free_index(lobby: Lobby) -> int:
    taken = set(lobby.seats.values_list("index", flat=True))
    for index in range(lobby.num_seats):
        if index not in taken:
            return index
    raise AppError("conflict", _("The lobby is full."))


def _finish(lobby: Lobby, *, kicked: int | None = None) -> Lobby:
    lobby.version += 1
    lobby.last_active_at = timezone.now()
    lobby.save(update_fields=["status", "seed", "match_id", "version", "updated_at", "last_active_at",
                              "invite_code"])
    broadcast.after_commit(lobby.pk, lobby.private, kicked=kicked)
    return lobby


def _change(fn):
    """Atomic, after expiring this lobby if it went idle: the expiry commits on its own,
    so the refusal _require_open then raises cannot roll it back."""
    atomic = transaction.atomic(fn)

    @functools.wraps(fn)
    def run(actor, lobby_id: int, *args, **kwargs):
        expiry.expire_idle(lobby_id)
        return atomic(actor, lobby_id, *args, **kwargs)

    return run


# ---- changes ---------------------------------------------------------------
@transaction.atomic
def create_lobby(host, game, options, num_seats, private: bool, time_control: dict | None = None, *,
                 rated: bool = False) -> Lobby:
    engine = _engine(game)
    options = validate_setup(engine, options, num_seats)
    if rated and num_seats < 2:
        message = _("A rated match needs at least two players.")
        raise AppError("bad_message", message, fields={"rated": [message]})
    return _open(host, engine, options, num_seats, private, validate_time_control(time_control), rated=rated)


def _no_bots_when_rated() -> str:
    return _("A rated match is for people only: make the match unrated to seat a bot.")


def _require_room_for(user, hosting: bool) -> None:
    """One account may host LOBBY_MAX_HOSTED open lobbies and sit in
    LOBBY_MAX_SEATED (hosted ones included): enough for anyone, and no one
    fills the public list alone.  The user's row is locked so that
    simultaneous requests of one account are counted one after the other."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
    open_lobbies = Lobby.objects.filter(status=Lobby.Status.OPEN)
    if hosting and open_lobbies.filter(host=user).count() >= settings.LOBBY_MAX_HOSTED:
        raise AppError("limit_reached", _("You already host %(count)d open lobbies; start or close one first.")
                       % {"count": settings.LOBBY_MAX_HOSTED})
    if open_lobbies.filter(seats__user=user).count() >= settings.LOBBY_MAX_SEATED:
        raise AppError("limit_reached", _("You are already seated in %(count)d open lobbies; leave one first.")
                       % {"count": settings.LOBBY_MAX_SEATED})


def _too_many_lobbies(wait: int) -> str:
    # Each new lobby is announced to everyone watching the list: opening and
    # closing them in a loop would flood every visitor's screen.
    return ngettext("You have opened too many lobbies. Try again in %(seconds)d second.",
                    "You have opened too many lobbies. Try again in %(seconds)d seconds.", wait) % {"seconds": wait}


def _open(host, engine: Engine, options: dict, num_seats: int, private: bool, time_control: dict, *,
          bots=(), rematch_of: int | None = None, rated: bool = False) -> Lobby:
    """A new lobby hosted (seat 0) by `host`, with `bots` in the next seats; announced after commit."""
    _require_room_for(host, hosting=True)
    if rematch_of is None:  # a rematch needs a finished match first: no way to churn the list
        ratelimit.take("lobby", f"user:{host.pk}", code="lobby_rate_limited", message=_too_many_lobbies)
    lobby = Lobby.objects.create(
        game=engine.id, options=options, num_seats=num_seats, private=bool(private), host=host,
        rated=bool(rated) and not bots,
        invite_code=new_invite_code() if private else "", time_control=time_control, rematch_of=rematch_of,
    )
    LobbySeat.objects.bulk_create([LobbySeat(lobby=lobby, index=0, user=host)]
                                  + [LobbySeat(lobby=lobby, index=i, bot=bot) for i, bot in enumerate(bots, 1)])
    broadcast.after_commit(lobby.pk, lobby.private)
    return lobby


@_change
def join(user, lobby_id: int, code: str | None = None) -> Lobby:
    lobby = _locked(lobby_id)
    _require_open(lobby)
    if lobby.seats.filter(user=user).exists():
        raise AppError("conflict", _("You are already seated in this lobby."))
    if lobby.private and not code_matches(lobby, code) and not played_rematched_match(lobby, user):
        raise AppError("forbidden", _("This lobby is private; you need its invite code."))
    if was_kicked(lobby, user):
        raise AppError("forbidden", kicked_message())
    _require_room_for(user, hosting=False)
    try:
        with transaction.atomic():
            LobbySeat.objects.create(lobby=lobby, index=_free_index(lobby), user=user)
    except IntegrityError:
        raise AppError("conflict", _("That seat was just taken; try again.")) from None
    return _finish(lobby)


@_change
def leave(user, lobby_id: int) -> Lobby:
    """A player frees their seat; the host leaving closes the lobby for everyone."""
    lobby = _locked(lobby_id)
    _require_open(lobby)
    if lobby.host_id == user.pk:
        lobby.status = Lobby.Status.CLOSED
        return _finish(lobby)
    deleted, _per_model = lobby.seats.filter(user=user).delete()
    if not deleted:
        raise AppError("conflict", _("You are not seated in this lobby."))
    return _finish(lobby)


@_change
def kick(host, lobby_id: int, user_id: int) -> Lobby:
    lobby = _locked(lobby_id)
    _require_host(lobby, host)
    _require_open(lobby)
    if user_id == host.pk:
        raise AppError("conflict", _("The host cannot kick themselves; leave to close the lobby."))
    deleted, _per_model = lobby.seats.filter(user_id=user_id).delete()
    if not deleted:
        raise AppError("not_found", _("That player is not seated in this lobby."))
    lobby.kicked.add(user_id)
    if lobby.private:
        # The kicked user knows the code: a new one keeps them out whichever account (or none) they
        # come back with. Members see the new code; viewers who came by the old one are shown out.
        lobby.invite_code = new_invite_code()
    return _finish(lobby, kicked=user_id)


@_change
def add_bot(host, lobby_id: int, bot: str) -> Lobby:
    lobby = _locked(lobby_id)
    _require_host(lobby, host)
    _require_open(lobby)
    engine = _engine(lobby.game)
    if bot not in engine.bots:
        message = _("%(game)s has no bot called %(bot)r; choose %(bots)s.") % {
            "game": display_name(engine), "bot": bot, "bots": ", ".join(sorted(engine.bots))}
        raise AppError("bad_message", message, fields={"bot": [_("Unknown bot.")]})
    if lobby.rated:
        raise AppError("conflict", _no_bots_when_rated())
    LobbySeat.objects.create(lobby=lobby, index=_free_index(lobby), bot=bot)
    return _finish(lobby)


@_change
def remove_bot(host, lobby_id: int, index: int) -> Lobby:
    lobby = _locked(lobby_id)
    _require_host(lobby, host)
    _require_open(lobby)
    deleted, _per_model = lobby.seats.filter(index=index, user__isnull=True).delete()
    if not deleted:
        raise AppError("not_found", _("Seat %(seat)d holds no bot.") % {"seat": index})
    return _finish(lobby)


@_change
def set_rated(host, lobby_id: int, rated: bool) -> Lobby:
    lobby = _locked(lobby_id)
    _require_host(lobby, host)
    _require_open(lobby)
    if rated and lobby.seats.filter(user__isnull=True).exists():
        raise AppError("conflict", _("A rated match is for people only: remove the bots first."))
    if rated and lobby.num_seats < 2:
        raise AppError("conflict", _("A rated match needs at least two players."))
    if lobby.rated != rated:
        lobby.rated = rated
        lobby.save(update_fields=["rated"])
    return _finish(lobby)


@_change
def start(host, lobby_id: int):
    """Create the match: seats in a random order drawn from a stored seed, then the match seed from the same RNG."""
    from backend.matches.services import create_match  # the matches app imports nothing from lobbies

    lobby = _locked(lobby_id)
    _require_host(lobby, host)
    _require_open(lobby)
    seats = list(lobby.seats.select_related("user").order_by("index"))
    if len(seats) < lobby.num_seats:
        raise AppError("conflict", ngettext("Only %(taken)d of %(count)d seat is taken.", "Only %(taken)d of %(count)d seats are taken.",
                                            lobby.num_seats) % {"taken": len(seats), "count": lobby.num_seats})
    lobby.seed = secrets.randbits(63)
    rng = random.Random(lobby.seed)
    players = [seat.user if seat.user_id else seat.bot for seat in seats]
    rng.shuffle(players)
    try:
        match = create_match(lobby.game, lobby.options, players, rng.getrandbits(63), public=not lobby.private,
                             time_control=lobby.time_control, rated=lobby.rated)
    except ValueError as exc:
        raise AppError("bad_message", str(exc)) from None
    lobby.status = Lobby.Status.STARTED
    lobby.match_id = match.pk
    _finish(lobby)
    return match


# ---- rematch ---------------------------------------------------------------
def rematch(user, match_id: int) -> tuple[Lobby, bool]:
    """The lobby for a rematch of a finished match, and whether this call opened it.

    Once per match: a second call (by any of its players) gets the same lobby,
    unless that one closed or expired without starting.  Same game, options
    (without test hooks), time control, seat count, bots, privacy and rating; the caller
    hosts it, and the old match's players join it without the invite code."""
    previous = Match.objects.filter(pk=match_id).values_list("rematch_lobby_id", flat=True).first()
    if previous:
        expiry.expire_idle(previous)  # commits on its own, like _change
    return _rematch(user, match_id)


@transaction.atomic
def _rematch(user, match_id: int) -> tuple[Lobby, bool]:
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise AppError("not_found", _("There is no such match."))
    seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    if not any(seat.user_id == user.pk for seat in seats):
        raise AppError("forbidden", _("Only a player of this match can ask for a rematch."))
    if match.status != Match.Status.FINISHED:
        raise AppError("conflict", _("A rematch can be asked for once the match has finished."))
    if match.rematch_lobby_id is not None:
        lobby = Lobby.objects.filter(pk=match.rematch_lobby_id).first()
        if lobby is not None and lobby.status in (Lobby.Status.OPEN, Lobby.Status.STARTED):
            return lobby, False
    engine = _engine(match.game)
    options = {k: v for k, v in match.options.items() if not engine.options_schema.get(k, {}).get("test_hook")}
    options = validate_setup(engine, options, len(seats))
    try:
        with transaction.atomic():
            lobby = _open(user, engine, options, len(seats), not match.public, validate_time_control(match.time_control),
                          bots=[seat.bot for seat in seats if seat.bot], rematch_of=match.pk, rated=match.rated)
            # Guarded on the value read: where rows are not locked (SQLite) a concurrent
            # call may have stored its lobby meanwhile; then that one is the rematch.
            if not Match.objects.filter(pk=match.pk, rematch_lobby_id=match.rematch_lobby_id).update(
                    rematch_lobby_id=lobby.pk):
                raise _Taken
            # The other players hear of it (backend/notifications), with the match's end as its cause.
            enqueue(REMATCH, [seat.user_id for seat in seats if seat.user_id != user.pk], match.pk, match.version,
                    {"lobby": lobby.pk})
    except _Taken:
        return Lobby.objects.get(pk=Match.objects.values_list("rematch_lobby_id", flat=True).get(pk=match.pk)), False
    return lobby, True


class _Taken(Exception):
    pass
