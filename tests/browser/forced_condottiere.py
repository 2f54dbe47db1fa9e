"""A Condottiere match in which one person is asked every decision type soon: the token, a battle, the papal
legate, the keep-or-discard question and the keeping of cards (issue 26's phone walk, test_phone_fit.py).

The lobby draws a match's seed and shuffles its deck, so a browser test cannot choose them; this module starts the
match through the services instead (like test_replay.py), with a seed and a stacked deck (the engine's `deck` test
hook). The person sits where the seed puts the first condottiere and holds a Bishop and nine other cards (HANDS); the
heuristic bots get cards that are no mercenary. The person plays the Bishop at their first battle turn (the
legate: off the board) and passes after it, and keeps their hand when asked, so once the bots have thrown their
hands away the round ends with the person keeping cards.

The bots are deterministic (the platform seeds each move's `random.Random` with the match's seed, the version and
the seat: backend/matches/runtime/bots.py), so the match is played here first with the engine alone; the first
seed whose match asks the person every decision is the one started. The search stops at the keep, and the keep
must follow the first keep-or-discard question: while that question is open a person's focus on it sends a `hold`
(a version of its own), which would change the bots' draws after it.

Run by `manage.py shell` against the server's database (`create(username, seats, hand)`); prints
{"match": id, "seat": person's seat, "plan": [[phase, action, version], ...]}: the person's actions in order, each with
the match's version when it is asked (null from the keep-or-discard question on, where the order of the answers
and a hold may count differently); the last is the keep, [phase, null, null].
"""

from __future__ import annotations

import json
import random

from backend.engines import get_engine
from backend.engines.condottiere.cards import MERCENARY_VALUES, STANDARD_DECK
from backend.games.registry import new_match_options

BOT = "heuristic"
ENGINE = get_engine("condottiere")
# The person's hand: a Bishop and nine mercenaries (asked to keep their hand, they may only go on; the names of two
# kept mercenaries make the longest keep button), or a Bishop and nine other cards (asked, they may throw their hand
# away or keep it).
HANDS = {
    "mercenaries": ["bishop", "m10", "m10", "m6", "m6", "m5", "m4", "m3", "m2", "m1"],
    "plain": ["bishop", "scarecrow", "courtesan", "heroine", "heroine", "heroine", "courtesan", "courtesan", "courtesan",
              "drummer"],
}
WANTED = ("place_token", "battle", "legate", "discard_hand", "keep")


def _options(deck: list[str] | None) -> dict:
    return new_match_options("condottiere", ENGINE.validate_options({} if deck is None else {"deck": deck}))


def _deck(seats: int, me: int, hand: list[str], rng: random.Random) -> list[str]:
    """The person's `hand` dealt to seat `me`; the bots' ten each from the cards that are no mercenary."""
    rest = list(STANDARD_DECK)
    for c in hand:
        rest.remove(c)
    plain = [c for c in rest if c not in MERCENARY_VALUES]
    mercenaries = [c for c in rest if c in MERCENARY_VALUES]
    rng.shuffle(plain)
    bots = plain[:10 * (seats - 1)]
    tail = plain[10 * (seats - 1):] + mercenaries
    rng.shuffle(tail)
    hands = [bots[10 * i:10 * (i + 1)] for i in range(seats - 1)]
    hands.insert(me, list(hand))
    return [c for h in hands for c in h] + tail


def _mine(state: dict, seat: int) -> dict:
    """The person's move: the Bishop at the first chance, the legate off the board, else pass or keep the hand."""
    legal = ENGINE.legal_actions(state, seat)
    phase = state["phase"]
    if phase == "place_token":
        return legal[0]
    if phase == "battle":
        bishop = next((a for a in legal if a["type"] == "play" and a["card"] == "bishop"), None)
        return bishop or next(a for a in legal if a["type"] == "pass" and not a.get("reveal"))
    if phase == "legate":
        return next(a for a in legal if a["region"] is None)
    if phase == "discard_hand":
        return next(a for a in legal if a["type"] == "keep_hand")
    raise AssertionError(phase)


def plan(seats: int, seed: int, deck: list[str], me: int) -> list | None:
    """The person's [phase, action, version] in order up to the keep, if the match asks every WANTED decision; else None."""
    state = ENGINE.setup(seats, _options(deck), seed)
    version, out, questions = 0, [], 0
    while version < 400 and not ENGINE.is_over(state):
        phase = state["phase"]
        movers = ENGINE.to_move(state)
        if phase == "discard_hand":
            questions += 1
            for seat in movers:  # answered together; the bots' answer draws nothing (bots.choose_discard)
                action = _mine(state, seat) if seat == me else ENGINE.bots[BOT](
                    ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), random.Random(f"{seed}:{version}:{seat}"))
                if seat == me:
                    out.append([phase, action, None])
                state = ENGINE.play(state, seat, action).state
                version += 1
            continue
        seat = movers[0]
        if seat == me:
            if phase == "keep":
                out.append([phase, None, None])
                ok = questions == 1 and {step[0] for step in out} >= set(WANTED)
                return out if ok else None
            action = _mine(state, seat)
            out.append([phase, action, version])
        else:
            action = ENGINE.bots[BOT](ENGINE.view(state, seat), ENGINE.legal_actions(state, seat),
                                      random.Random(f"{seed}:{version}:{seat}"))
        state = ENGINE.play(state, seat, action).state
        version += 1
    return None


def find(seats: int, hand: list[str]) -> tuple[int, list[str], int, list]:
    """(seed, deck, the person's seat, plan) of the first seed that asks the person every decision, holding `hand`."""
    for seed in range(1, 400):
        me = ENGINE.setup(seats, _options(None), seed)["holder"]  # the first condottiere: the seed's draw, not the deck's
        deck = _deck(seats, me, hand, random.Random(seed))
        steps = plan(seats, seed, deck, me)
        if steps:
            return seed, deck, me, steps
    raise AssertionError(f"no seed below 400 asks every decision with {seats} seats and the hand {hand}")


def create(username: str, seats: int, hand: str) -> None:
    from django.contrib.auth import get_user_model

    from backend.matches import services

    seed, deck, me, steps = find(seats, HANDS[hand])
    user = get_user_model().objects.get(username=username)
    players = [BOT] * seats
    players[me] = user
    match = services.create_match("condottiere", {"deck": deck}, players, seed, True)
    assert match.state["holder"] == me and match.state["hands"][me] == HANDS[hand]
    print(json.dumps({"match": match.pk, "seat": me, "plan": steps}))

