"""Difference frames on the match socket (docs/api.md, Difference frames): after
its first full state a client that asks with ?frames=patch gets patches that
make exactly the states a client without the query gets; a sync, a resent
action and a reconnect get the whole state; without the query nothing changes."""

from __future__ import annotations

import json
import random

import pytest

from backend.asgi import application

from .match_support import Player, condottiere_policy, create, lean_state, make_users, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("match_env")]


def _kinds(player: Player) -> list[str]:
    return [json.loads(t)["type"] for t in player.raw if json.loads(t)["type"] in ("state", "patch")]


async def _table(patching: bool):
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=9)
    tokens = [await token_for(u) for u in users]
    full = [Player(application, match_id, t) for t in tokens] + [Player(application, match_id)]
    patched = [Player(application, match_id, t, patches=patching) for t in tokens]
    patched.append(Player(application, match_id, patches=patching))
    for p in full + patched:
        await p.connect()
    return match_id, tokens, full, patched


async def _play(full: list[Player], others: list[Player], moves: int, rng) -> int:
    version = full[0].state["version"]
    for _ in range(moves):
        mover = next(p for p in full[:3] if p.state["legal_actions"])
        await mover.act(condottiere_policy(mover.state["legal_actions"], rng), version)
        version += 1
        for p in full + others:
            await p.until_version(version)
    return version


async def test_patches_make_the_states_full_frames_carry():
    _, _, full, patched = await _table(True)
    rng = random.Random(5)
    await _play(full, patched, 40, rng)
    for mine, theirs in zip(patched, full):
        kinds = _kinds(mine)
        assert kinds[0] == "state" and set(kinds[1:]) == {"patch"} and len(kinds) == 41
        assert _kinds(theirs) == ["state"] * 41  # the neighbours without the query: as before
        # Every state a patch made is the state the full frames carried, in the
        # lean form a patching client holds (times masked).
        made = [f for f in mine.states() if f.startswith('{"type":"state"')]
        assert made == [lean_state(t) for t in theirs.states()]
    sizes = [len(t.encode()) for p in patched for t in p.raw if json.loads(t)["type"] == "patch"]
    fulls = [len(t.encode()) for p in full for t in p.raw if json.loads(t)["type"] == "state"]
    assert sum(sizes) / len(sizes) < sum(fulls) / len(fulls) / 2


async def test_sync_and_a_resent_action_get_the_whole_state():
    _, _, full, patched = await _table(True)
    rng = random.Random(6)
    version = await _play(full, patched, 3, rng)
    seat = patched[0]
    await seat.send({"type": "sync"})
    answer = await seat.next("state", "patch")
    assert json.loads(seat.raw[-1])["type"] == "state" and answer["version"] == version
    # A resent action is answered with the current state, whole.
    mover = next(i for i in range(3) if full[i].state["legal_actions"])
    client_id = await patched[mover].act(condottiere_policy(patched[mover].state["legal_actions"], rng))
    version += 1
    for p in full + patched:
        await p.until_version(version)
    await patched[mover].act({"type": "pass"}, version - 1, client_id)
    await patched[mover].next("state", "patch")
    assert json.loads(patched[mover].raw[-1])["type"] == "state"
    assert not patched[mover].errors
    # And the patches go on from the state sent last.
    version = await _play(full, patched, 3, rng)
    assert json.loads(patched[mover].raw[-1])["type"] == "patch"


async def test_a_reconnect_starts_from_a_whole_state():
    match_id, tokens, full, patched = await _table(True)
    rng = random.Random(7)
    await _play(full, patched, 3, rng)
    await patched[1].close()
    version = await _play(full, patched[:1] + patched[2:], 4, rng)
    again = Player(application, match_id, tokens[1], patches=True)
    first = await again.connect()
    assert first["type"] == "state" and first["version"] == version
    await _play(full, [again], 2, rng)
    assert _kinds(again) == ["state", "patch", "patch"]
    assert again.states()[-1] == lean_state(full[1].states()[-1])


async def test_other_frames_values_leave_full_frames():
    """frames=anything else (or twice, one of them patch) is read as the query says."""
    users = await make_users(3)
    match_id = await create("condottiere", users, seed=9)
    token = await token_for(users[0])
    other = Player(application, match_id, token, path=f"/ws/matches/{match_id}/?frames=full")
    both = Player(application, match_id, token, path=f"/ws/matches/{match_id}/?frames=full&frames=patch")
    full = [Player(application, match_id, await token_for(u)) for u in users]
    for p in (other, both, *full):
        await p.connect()
    await _play(full, [other, both], 2, random.Random(1))
    assert _kinds(other) == ["state"] * 3
    assert _kinds(both) == ["state", "patch", "patch"]
