"""What a bot seat plays: its engine bot, fed only that seat's view."""

from __future__ import annotations

import logging
import random
import uuid

from ..domain import BOT_ID_PREFIX, MatchInfo, Snapshot

log = logging.getLogger(__name__)


def choose(info: MatchInfo, snapshot: Snapshot, seat: int, bot: str) -> tuple[dict, list, random.Random] | None:
    """(action, legal actions, rng) for `seat` played by `bot`, or None when it has nothing to do."""
    engine = info.engine
    legal = engine.legal_actions(snapshot.state, seat)
    if not legal:
        return None
    rng = random.Random(f"{info.seed}:{snapshot.version}:{seat}")
    try:
        action = engine.bots[bot](engine.view(snapshot.state, seat), legal, rng)
    except Exception:
        log.exception("bot %s failed in match %s at version %s", bot, info.id, snapshot.version)
        action = rng.choice(legal)
    return action, legal, rng


def client_id(version: int, seat: int) -> str:
    # Not guessable: a player sending a bot's id must not make its move look
    # like a resend.  Two processes racing for this turn are kept to one
    # action by the version check, not by the id.
    return f"{BOT_ID_PREFIX}{version}:{seat}:{uuid.uuid4().hex}"
