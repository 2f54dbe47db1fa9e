"""No dead steps: where silence answers (Condottiere's keep-or-discard question
after a battle, p. 8: discarding is a choice), nobody has to tap, and a seat
with no choice is never told apart from one that has a choice."""

from __future__ import annotations

import pytest

from backend.asgi import application
from backend.engines import get_engine
from backend.engines.condottiere.cards import MERCENARY_VALUES, STANDARD_DECK

from .match_support import Player, create, log_rows, make_users, token_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _env(match_env):
    match_env.MATCH_DEFAULT_WINDOW_S = 0.3
    return match_env


def test_condottiere_keeps_silent_hands(fake_game):
    engine = get_engine("condottiere")
    state = engine.setup(3, {}, 1)
    assert engine.defaults(state) == {}  # placing the token: a decision to make
    state = dict(state, phase="discard_hand", queue=[0, 2])
    assert engine.defaults(state) == {0: {"type": "keep_hand"}, 2: {"type": "keep_hand"}}


def _deck(seat2_has_a_mercenary: bool) -> list[str]:
    """Seats 0 and 1 get mercenaries; seat 2 ten special cards, one of them
    swapped with a mercenary from the rest of the deck in the other twin."""
    rest = list(STANDARD_DECK)
    hands = []
    for seat in range(3):
        wanted = (lambda c: c in MERCENARY_VALUES) if seat < 2 else (lambda c: c not in MERCENARY_VALUES)
        hand = [c for c in rest if wanted(c)][:10]
        for c in hand:
            rest.remove(c)
        hands.append(hand)
    if seat2_has_a_mercenary:
        mercenary = next(c for c in rest if c in MERCENARY_VALUES)
        hands[2][hands[2].index("bishop")] = mercenary
        rest[rest.index(mercenary)] = "bishop"
    return hands[0] + hands[1] + hands[2] + rest


async def _to_the_question(players: list[Player]) -> int:
    """Place the token, everyone passes: the battle ends and the question comes."""
    version = players[0].state["version"]
    while players[3].state["view"]["phase"] != "discard_hand":
        mover = next(p for p in players[:3] if p.state["legal_actions"])
        legal = mover.state["legal_actions"]
        action = next((a for a in legal if a["type"] == "pass"), legal[0])
        await mover.act(action)
        version += 1
        for p in players:
            await p.until_version(version)
    return version


async def _twin(users, seat2_has_a_mercenary: bool) -> tuple[int, list[Player]]:
    match_id = await create("condottiere", users, {"deck": _deck(seat2_has_a_mercenary)}, seed=11)
    players = [Player(application, match_id, await token_for(u)) for u in users] + [Player(application, match_id)]
    for p in players:
        await p.connect()
    return match_id, players


async def test_nobody_taps_and_a_forced_seat_looks_like_any_other():
    users = await make_users(3)
    twins = [await _twin(users, has) for has in (True, False)]
    choices = []
    for _, players in twins:
        asked_at = await _to_the_question(players)
        question = players[3].state
        assert question["view"]["phase"] == "discard_hand" and question["defaults_in_ms"] is not None
        choices.append({a["type"] for a in players[2].state["legal_actions"]})
        # Nobody answers: the window closes and every hand is kept, one version per silent seat.
        final = await players[3].until_version(asked_at + 3, timeout=5)
        assert final["view"]["phase"] != "discard_hand" and final["defaults_in_ms"] is None
    (a_id, a), (b_id, b) = twins
    # Seat 2 may discard in one twin only (its own legal actions say so) ...
    assert choices == [{"keep_hand"}, {"keep_hand", "discard_hand"}]
    # ... and nobody else can tell: the other seats and the spectator got the same bytes.
    for viewer in (0, 1, 3):
        assert a[viewer].states() == b[viewer].states(), f"viewer {viewer}"
    rows = [await log_rows(match_id) for match_id in (a_id, b_id)]
    for log in rows:
        answered = [(r["seat"], r["action"]) for r in log if r["action"].get("type") == "keep_hand"]
        assert answered == [(0, {"type": "keep_hand"}), (1, {"type": "keep_hand"}), (2, {"type": "keep_hand"})]
        assert all(r["client_id"].startswith("platform:") for r in log if r["action"].get("type") == "keep_hand")
    for _, players in twins:
        for p in players:
            await p.close()


async def test_a_seat_may_still_choose_within_the_window(settings):
    settings.MATCH_DEFAULT_WINDOW_S = 30
    users = await make_users(3)
    match_id, players = await _twin(users, False)
    asked_at = await _to_the_question(players)
    chooser = players[2]
    assert {"type": "discard_hand"} in chooser.state["legal_actions"]
    version = asked_at
    # Seat 2 discards, the others answer too: the question is settled at once, no waiting.
    for p, action in ((chooser, {"type": "discard_hand"}), (players[0], {"type": "keep_hand"}),
                      (players[1], {"type": "keep_hand"})):
        await p.act(action, version=version)
        version += 1
        for q in players:
            await q.until_version(version)
    final = players[3].state
    assert final["view"]["phase"] != "discard_hand"
    kinds = [(r["seat"], r["action"]["type"]) for r in await log_rows(match_id)][-3:]
    assert sorted(kinds) == [(0, "keep_hand"), (1, "keep_hand"), (2, "discard_hand")]
    for p in players:
        await p.close()


async def _hold(player: Player, version: int | None = None) -> str:
    client_id = f"hold-{version}-{id(player)}-{len(player.raw)}"
    await player.send({"type": "hold", "version": player.state["version"] if version is None else version, "id": client_id})
    return client_id


async def test_a_player_holds_the_window_within_its_cap(settings):
    """A keyboard player's focus on the question holds it (frontend: match.js); the hold is bounded: the window
    never ends later than MATCH_HOLD_MAX_S after the step began, however often a seat holds."""
    settings.MATCH_DEFAULT_WINDOW_S = 0.5
    settings.MATCH_HOLD_S = 2
    settings.MATCH_HOLD_MAX_S = 2.5
    users = await make_users(3)
    match_id, players = await _twin(users, False)
    asked_at = await _to_the_question(players)
    assert players[2].state["defaults_in_ms"] <= 500
    await _hold(players[2], asked_at)
    held = await players[3].until_version(asked_at + 1)
    for p in players[:3]:
        await p.until_version(asked_at + 1)
    # Every viewer sees the longer window, nothing else changes: same phase, no event, the same seats asked.
    assert held["view"]["phase"] == "discard_hand" and held["events"] == []
    assert 1500 <= held["defaults_in_ms"] <= 2500
    # Past the first window nothing was answered for anyone.
    assert await players[3].silent(0.8)
    # Holding again cannot pass the cap: at most 2.5 s after the step began, so less than a second to gain.
    await _hold(players[2])
    refused = await players[2].next("error")
    assert refused["code"] == "conflict"
    # A spectator cannot hold; a seat that already answered is no longer asked.
    await _hold(players[3])
    assert (await players[3].next("error"))["code"] == "unauthenticated"  # an anonymous spectator
    await players[0].act({"type": "keep_hand"})
    after = await players[0].until_version(asked_at + 2)
    await _hold(players[0], after["version"])
    assert (await players[0].next("error"))["code"] == "not_your_turn"
    # The cap passes and the rules answer for the silent seats.
    final = await players[3].until_version(asked_at + 4, timeout=5)
    assert final["view"]["phase"] != "discard_hand" and final["defaults_in_ms"] is None
    log = await log_rows(match_id)
    holds = [r for r in log if r["action"].get("platform")]
    assert [r["action"] for r in holds] == [{"platform": "hold"}]
    # Logged under a server id: a hold is never one of the player's own moves (the ratings count those).
    assert holds[0]["client_id"].startswith("platform:")
    for p in players:
        await p.close()


async def test_a_hold_outside_such_a_step_or_malformed_is_refused():
    users = await make_users(3)
    match_id, players = await _twin(users, False)
    mover = next(p for p in players[:3] if p.state["legal_actions"])  # placing the token: no window
    await _hold(mover)
    assert (await mover.next("error"))["code"] == "not_your_turn"
    await mover.send({"type": "hold", "version": "1", "id": "x"})
    assert (await mover.next("error"))["code"] == "bad_message"
    await mover.send({"type": "hold", "version": mover.state["version"], "id": ""})
    assert (await mover.next("error"))["code"] == "bad_message"
    await _hold(mover, mover.state["version"] + 5)
    assert (await mover.next("error"))["code"] == "stale_version"
    assert [r for r in await log_rows(match_id) if r["action"].get("platform")] == []
    for p in players:
        await p.close()
