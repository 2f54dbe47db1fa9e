"""The outbox is written with its cause (docs/notifications.md): a move of a turn-based match
that asks a new seat, in the move's own statement; a match's start and end; a rematch; a
chat line naming a player. Untimed and real-time matches are played with the page open:
their moves write nothing."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from backend.asgi import application
from backend.matches import chat, services
from backend.matches.runtime import MatchHub
from backend.notifications.models import CHAT, MATCH_END, MATCH_START, REMATCH, YOUR_MOVE, Outbox

from .match_support import Player, make_users, token_for, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env", "fake_game")]

DAILY = {"kind": "turn_based", "per_move_s": 86_400}
BLITZ = {"kind": "realtime", "bank_s": 180, "increment_s": 2}


async def _match(users, time_control, rounds=2) -> int:
    match = await database_sync_to_async(services.create_match)(
        "counting", {"rounds": rounds, "fixed_start": 0}, users, 7, True, time_control)
    await MatchHub.current().wake(match.pk)
    return match.pk


@database_sync_to_async
def _rows(match_id: int) -> list[tuple]:
    return sorted(Outbox.objects.filter(match_id=match_id).values_list("kind", "user_id", "version"))


async def _players(match_id, users) -> list[Player]:
    players = [Player(application, match_id, await token_for(u)) for u in users]
    for p in players:
        await p.connect()
    return players


async def test_a_turn_based_move_tells_the_next_player_in_its_own_write():
    users = await make_users(2)
    match_id = await _match(users, DAILY)
    assert await _rows(match_id) == sorted([(MATCH_START, users[0].pk, 0), (MATCH_START, users[1].pk, 0)])
    a, b = await _players(match_id, users)
    await a.act({"type": "say", "n": 1})
    await b.until_version(1)
    await b.act({"type": "say", "n": 2})
    await a.until_version(2)
    moves = [r for r in await _rows(match_id) if r[0] == YOUR_MOVE]
    assert moves == [(YOUR_MOVE, users[0].pk, 2), (YOUR_MOVE, users[1].pk, 1)]
    await a.close()
    await b.close()


async def test_the_last_move_tells_the_end_not_a_move():
    users = await make_users(2)
    match_id = await _match(users, DAILY, rounds=1)
    a, b = await _players(match_id, users)
    await a.act({"type": "say", "n": 1})
    await b.until_version(1)
    await b.act({"type": "say", "n": 3})
    await a.until_version(2)
    ends = lambda: database_sync_to_async(  # noqa: E731
        lambda: sorted(Outbox.objects.filter(match_id=match_id, kind=MATCH_END).values_list("user_id", "version")))()
    assert await wait_for(ends) == sorted([(users[0].pk, 2), (users[1].pk, 2)])
    assert (YOUR_MOVE, users[0].pk, 2) not in await _rows(match_id)
    await a.close()
    await b.close()


@pytest.mark.parametrize("time_control", [None, BLITZ])
async def test_untimed_and_realtime_matches_write_nothing(time_control):
    users = await make_users(2)
    match_id = await _match(users, time_control)
    a, b = await _players(match_id, users)
    await a.act({"type": "say", "n": 1})
    await b.until_version(1)
    await b.act({"type": "say", "n": 1})
    await a.until_version(2)
    assert await _rows(match_id) == []
    await a.close()
    await b.close()


async def test_a_bot_seat_is_never_told():
    users = await make_users(1)
    match_id = await _match([users[0], "heuristic"], DAILY)
    (a,) = await _players(match_id, users)
    await a.act({"type": "say", "n": 1})
    await a.until_version(2)  # the bot answered: the human's move again
    assert [r for r in await _rows(match_id) if r[0] == YOUR_MOVE] == [(YOUR_MOVE, users[0].pk, 2)]
    await a.close()


def test_a_rematch_tells_the_other_players(make_user, client_for):
    users = [make_user(), make_user()]
    match = services.create_match("counting", {"rounds": 1, "fixed_start": 0}, users, 7, True, DAILY)
    from backend.matches.models import Match

    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    response = client_for(users[0]).post(f"/api/matches/{match.pk}/rematch/")
    assert response.status_code in (200, 201), response.json()
    rows = list(Outbox.objects.filter(kind=REMATCH).values_list("user_id", "extra"))
    assert rows == [(users[1].pk, {"lobby": response.json()["id"]})]


def test_a_chat_line_naming_a_player_tells_them_only(make_user):
    users = [make_user(), make_user(), make_user()]
    match = services.create_match("counting", {"rounds": 1, "fixed_start": 0}, users, 7, True, DAILY)
    chat.post_match(users[0], match.pk, f"@{users[1].username.upper()} your turn, take your time")
    chat.post_match(users[0], match.pk, "nobody named here")
    rows = list(Outbox.objects.filter(kind=CHAT).values_list("user_id", "extra"))
    assert rows == [(users[1].pk, {"from": users[0].username})]
