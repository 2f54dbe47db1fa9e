"""The hub plays a bot only for a seat the game waits for (engine.asked): a seat that may act but is not asked
(God's Playground: taking back "I recruit no more", rules doc D8b) is left to its player, even when the bot
holds it (handed over while its player was away)."""

from __future__ import annotations

from types import SimpleNamespace

from backend.engines.gods_playground import ENGINE, actions
from backend.matches.domain import ACTIVE
from backend.matches.runtime.deadlines import Deadlines
from tests.engines.gods_playground.helpers import BLUE, RED, WHITE, blank, nobles


def _recruitment_with_white_out() -> dict:
    s = blank(round_=2, start=WHITE)
    s["phase"] = "recruitment"
    actions.phase_recruitment(s, [])
    s["money"] = [20, 20, 20]
    nobles(s, "prussia", [1, 1, 1])
    return ENGINE.play(s, WHITE, {"type": "recruit_done"}).state


def _scheduled(state: dict, bots: dict) -> list[int]:
    """The seats schedule_bots starts a bot turn for, with `bots` {seat: bot} seated."""
    started = []
    deadlines = SimpleNamespace(bot_of=Deadlines.bot_of, hub=SimpleNamespace(spawn=lambda coro: coro.close()),
                                _bot_turn=lambda room, version, seat: started.append(seat) or _noop())
    room = SimpleNamespace(
        info=SimpleNamespace(engine=ENGINE, seats=[SimpleNamespace(bot=bots.get(s, "")) for s in range(3)]),
        snapshot=SimpleNamespace(status=ACTIVE, version=7, state=state, to_move=tuple(ENGINE.to_move(state)), control=[]),
        bot_turns=set())
    Deadlines.schedule_bots(deadlines, room)
    return started


async def _noop() -> None:
    return None


def test_a_bot_seat_that_may_only_take_back_recruit_done_is_not_played():
    s = _recruitment_with_white_out()
    assert ENGINE.to_move(s) == [BLUE, WHITE] and ENGINE.asked(s) == [BLUE]
    assert _scheduled(s, {WHITE: "advanced"}) == []  # blue (a person) is to move; white is nobody's to wait for
    assert _scheduled(s, {WHITE: "advanced", BLUE: "advanced"}) == [BLUE]
    assert _scheduled(s, {RED: "advanced"}) == []
