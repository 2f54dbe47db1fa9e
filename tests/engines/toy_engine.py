"""A tiny hidden-hand game used only to show that engine_checks can fail.

Each player gets three cards from 1..9; in turn each plays a card face up;
when the hands are empty the highest total wins (ties share).  The broken
subclasses each break one rule of the contract.
"""

from __future__ import annotations

import random

from backend.engines.base import Engine, IllegalAction, NotLegal, NotYourTurn, Played, clone
from backend.engines.vocabulary import Int, Vocabulary


class Toy(Engine):
    id = "toy"
    name = "Toy"
    min_players = 2
    max_players = 3
    actions = Vocabulary({"play": {"card": Int()}})

    def _setup(self, num_players, options, seed):
        deck = list(range(1, 10))
        random.Random(seed).shuffle(deck)
        hands = [sorted(deck[3 * i : 3 * i + 3]) for i in range(num_players)]
        return {"num_players": num_players, "hands": hands, "played": [[] for _ in hands],
                "deck": deck[3 * num_players :], "turn": 0}

    def is_over(self, state):
        return not any(state["hands"])

    def to_move(self, state):
        return [] if self.is_over(state) else [state["turn"]]

    def legal_actions(self, state, seat):
        if seat not in self.to_move(state):
            return []
        return [{"type": "play", "card": c} for c in state["hands"][seat]]

    def _step(self, state, seat, action, events):
        state["hands"][seat].remove(action["card"])
        state["played"][seat].append(action["card"])
        state["turn"] = (seat + 1) % state["num_players"]
        events.append({"text": f"Seat {seat} played {action['card']}", "to": None, "kind": "play", "seat": seat,
                       "params": {"card": action["card"]}})

    def view(self, state, seat):
        return {"hand": None if seat is None else state["hands"][seat],
                "hand_sizes": [len(h) for h in state["hands"]], "played": state["played"],
                "deck": len(state["deck"]), "turn": state["turn"]}

    def result(self, state):
        totals = [sum(p) for p in state["played"]]
        return {"winners": [s for s, t in enumerate(totals) if t == max(totals)], "scores": totals}


def swap_hidden(state, rng):
    """Hidden facts of the toy: a hand card swapped with an undealt one."""
    out = []
    for seat, hand in enumerate(state["hands"]):
        if hand and state["deck"]:
            changed = {**state, "hands": [list(h) for h in state["hands"]], "deck": list(state["deck"])}
            i, j = rng.randrange(len(hand)), rng.randrange(len(state["deck"]))
            changed["hands"][seat][i], changed["deck"][j] = changed["deck"][j], changed["hands"][seat][i]
            out.append((changed, {seat}))
    return out


class MutatingToy(Toy):
    def step(self, state, seat, action):
        new_state, events = super().step(state, seat, action)
        state["calls"] = state.get("calls", 0) + 1
        return new_state, events


class LeakyToy(Toy):
    def view(self, state, seat):
        return {**super().view(state, seat), "hands": state["hands"]}


class LaxToy(Toy):
    """Lets a player play a card they do not hold (it bypasses the base class's
    check against legal_actions)."""

    def play(self, state, seat, action):
        if isinstance(action, dict) and action.get("card") in range(1, 10) and action["card"] not in state["hands"][seat]:
            state = clone(state)
            state["hands"][seat].pop()
            state["played"][seat].append(action["card"])
            state["turn"] = (seat + 1) % state["num_players"]
            return Played(state, [], action)
        return super().play(state, seat, action)


class UntypedToy(Toy):
    """Refuses a seat out of turn with a bare IllegalAction (no code the platform can map)."""

    def not_your_turn(self, state, seat):
        return IllegalAction("Wait.")


class TurnFirstToy(Toy):
    """Asks whose turn it is before whether the message is an action at all."""

    def play(self, state, seat, action):
        if seat not in self.to_move(state):
            raise NotYourTurn("It is not your turn.")
        return super().play(state, seat, action)


class ForgetfulToy(Toy):
    """Logs an action that is not the one it applied."""

    def play(self, state, seat, action):
        played = super().play(state, seat, action)
        return played._replace(action={"type": "play"})


class ChattyToy(Toy):
    """Offers actions to a seat that is not to move."""

    def legal_actions(self, state, seat):
        if self.is_over(state):
            return []
        return [{"type": "play", "card": c} for c in state["hands"][seat]]


class UnseededToy(Toy):
    """Shuffles with the process-wide RNG instead of the seed."""

    def _setup(self, num_players, options, seed):
        return super()._setup(num_players, options, random.randrange(10**9))


class TellingToy(Toy):
    """Tells a seat that the card it asked for is in another player's hand."""

    def refusal(self, state, seat, action):
        if action["card"] in state["hands"][seat]:
            return None
        if any(action["card"] in hand for hand in state["hands"]):
            return NotLegal("Someone else holds that card.")
        return NotLegal("Nobody holds that card.")


class BlabbingToy(Toy):
    """Its public event also tells the cards the player still holds."""

    def _step(self, state, seat, action, events):
        super()._step(state, seat, action, events)
        events[-1]["params"]["left"] = sorted(state["hands"][seat])

