"""The lobby as clients see it (docs/api.md, Lobbies); shared by REST and WebSocket."""

from __future__ import annotations

from .models import Lobby


def with_relations(queryset):
    return queryset.select_related("host").prefetch_related("seats__user")


def _user(user) -> dict:
    return {"id": user.pk, "username": user.username}


def lobby_data(lobby: Lobby, *, show_code: bool = False) -> dict:
    """Seats list every index, empty ones included; the invite code only when `show_code`."""
    taken = {seat.index: seat for seat in lobby.seats.all()}
    seats = []
    for index in range(lobby.num_seats):
        seat = taken.get(index)
        seats.append({
            "index": index,
            "user": _user(seat.user) if seat is not None and seat.user_id else None,
            "bot": seat.bot if seat is not None and seat.bot else None,
        })
    return {
        "id": lobby.pk,
        "game": lobby.game,
        "options": lobby.options,
        "time_control": lobby.time_control,
        "num_seats": lobby.num_seats,
        "private": lobby.private,
        "rated": lobby.rated,
        "invite_code": lobby.invite_code if show_code and lobby.private else None,
        "host": _user(lobby.host),
        "seats": seats,
        "status": lobby.status,
        "match_id": lobby.match_id,
        "rematch_of": lobby.rematch_of,
        "version": lobby.version,
        "created_at": lobby.created_at.isoformat().replace("+00:00", "Z"),
    }


def member_ids(data: dict) -> set[int]:
    """Users entitled to the invite code: the host and every seated player."""
    ids = {data["host"]["id"]}
    ids.update(seat["user"]["id"] for seat in data["seats"] if seat["user"])
    return ids


def lobby_for(lobby: Lobby, user) -> dict:
    data = lobby_data(lobby, show_code=True)
    if user is None or not user.is_authenticated or user.pk not in member_ids(data):
        data["invite_code"] = None
    return data
