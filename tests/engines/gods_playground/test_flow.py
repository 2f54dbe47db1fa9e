"""Setup, the phase machine, hidden information and the engine contract for God's Playground."""

import json
import random

import pytest

from backend.engines import MalformedAction, NotLegal, NotYourTurn, available_engines, canonical, get_engine
from backend.engines.gods_playground import ENGINE
from backend.engines.gods_playground.board import BOARD, PROVINCES
from backend.engines.gods_playground.flow import PHASES
from backend.engines.gods_playground.state import check_supplies

from .helpers import play_random


def test_registered_for_exactly_three_players():
    assert "gods_playground" in available_engines()
    assert get_engine("gods_playground") is ENGINE
    for n in (2, 4):
        with pytest.raises(ValueError, match="3 to 3"):
            ENGINE.setup(n)
    with pytest.raises(ValueError, match="Unknown option"):
        ENGINE.setup(3, options={"variant": 1})
    with pytest.raises(ValueError, match="1 to 6"):
        ENGINE.setup(3, options={"dice": [7]})
    assert ENGINE.options_schema["dice"]["test_hook"] is True


def test_setup_places_three_estates_each_from_the_least_valuable_space():
    """Rulebook p.4: income markers on 3, 10 talers each, three estates each placed in turn
    starting with the start player, the marker passed on after each round of placing."""
    s = ENGINE.setup(3, seed=5)
    assert s["money"] == [10, 10, 10]
    assert all(s["prov"][p]["income"] == 3 for p in PROVINCES)
    first = s["start"]
    expected = [first, (first + 1) % 3, (first + 2) % 3, (first + 1) % 3, (first + 2) % 3, first,
                (first + 2) % 3, first, (first + 1) % 3]
    seen = []
    for i in range(9):
        (seat,) = ENGINE.to_move(s)
        seen.append(seat)
        if i == 7:  # Ukraine's seven spaces are full
            assert {"type": "place_estate", "province": "ukraine"} not in ENGINE.legal_actions(s, seat)
        s = ENGINE.apply(s, seat, {"type": "place_estate", "province": "ukraine" if i < 7 else "prussia"})
    assert seen == expected
    assert s["prov"]["ukraine"]["estates"][:7] == expected[:7]
    assert s["prov"]["prussia"]["estates"][:3] == [expected[7], expected[8], None]
    assert s["phase"] == "nobles"
    assert s["money"] == [10 + 10] * 3  # round 1 income ran: three estates at 3 is below the minimum 10


def test_the_setup_die_is_a_die_like_any_other_p4():
    """p.4 "Kockadobással döntsétek el, ki lesz a kezdőjátékos": the start player's die comes
    from the `dice` test hook first, like every other die (1/4 white, 2/5 blue, 3/6 red)."""
    for die, seat in ((1, 0), (2, 1), (3, 2), (4, 0), (5, 1), (6, 2)):
        s = ENGINE.setup(3, seed=9, options={"dice": [die, 6]})
        assert s["start"] == seat and s["dice_queue"] == [6]
        assert ENGINE.to_move(s) == [seat]  # the start player places the first estate
    starts = {ENGINE.setup(3, seed=seed)["start"] for seed in range(30)}
    assert starts == {0, 1, 2}  # without the hook the seeded dice decide


def test_all_four_rounds_of_sixteen_phases_run_in_order():
    """Rulebook p.4: four rounds, phases 1-16 in order."""
    rng = random.Random(3)
    s = ENGINE.setup(3, seed=3)
    seen = []
    while not ENGINE.is_over(s):
        seat = rng.choice(ENGINE.to_move(s))
        s, events = ENGINE.step(s, seat, rng.choice(ENGINE.legal_actions(s, seat)))
        seen += [(e["params"]["round"], e["params"]["phase"]) for e in events if e["kind"] == "phase"]
    assert seen == [(r, p) for r in range(1, 5) for p in PHASES]


@pytest.mark.parametrize("seed", range(12))
def test_random_games_end_with_supplies_conserved(seed):
    steps = 0
    for s, seat, action in play_random(seed):
        check_supplies(s)
        if seat is not None:
            assert action in ENGINE.legal_actions(s, seat)
        steps += 1
    assert ENGINE.is_over(s) and ENGINE.to_move(s) == []
    result = ENGINE.result(s)
    assert result["winners"] == [result["ranking"][0]]
    assert steps < 2000


def test_same_seed_and_actions_give_identical_states_and_json_round_trip():
    actions = [(seat, action) for _, seat, action in play_random(7) if seat is not None]
    a = ENGINE.setup(3, seed=7)
    b = json.loads(json.dumps(ENGINE.setup(3, seed=7)))
    for seat, action in actions:
        a = ENGINE.apply(a, seat, action)
        b = json.loads(json.dumps(ENGINE.apply(b, seat, action)))
        assert canonical(a) == canonical(b)
    assert ENGINE.is_over(a)


def test_illegal_actions_are_rejected_and_leave_the_state_unchanged():
    s = ENGINE.setup(3, seed=1)
    (seat,) = ENGINE.to_move(s)
    before = canonical(s)
    for bad, refused in (({"type": "place_estate", "province": "vienna"}, MalformedAction),
                         ({"type": "place_estate"}, MalformedAction),
                         ({"type": "place_estate", "province": "ukraine", "x": 1}, MalformedAction),
                         ({"type": "dance"}, MalformedAction),
                         ({"type": "bid", "amount": 3}, NotLegal)):
        with pytest.raises(refused) as err:
            ENGINE.apply(s, seat, bad)
        assert type(err.value) is refused
    with pytest.raises(NotYourTurn, match="not your turn"):
        ENGINE.apply(s, (seat + 1) % 3, {"type": "place_estate", "province": "ukraine"})
    assert canonical(s) == before


def to_nobles_phase(seed=2):
    s = ENGINE.setup(3, seed=seed)
    while s["pending"]["kind"] == "setup_estate":
        (seat,) = ENGINE.to_move(s)
        s = ENGINE.apply(s, seat, ENGINE.legal_actions(s, seat)[0])
    return s


SLOT_ORDER = list(PROVINCES) + ["royal"]


def commit(s, seat, tiles):
    """One seat's six tiles, Prussia to Great Poland then the royal army, in one action."""
    return ENGINE.apply(s, seat, {"type": "place_nobles", **dict(zip(SLOT_ORDER, tiles))})


def test_nobles_are_placed_simultaneously_and_secretly():
    """Rulebook p.5: six nobles each, face down, at the same time ("Ezt a lerakást egyszerre
    végzitek"), then revealed. A player lays out all six, may move them about, and commits
    the layout in one action (D2); until every seat has, nobody else learns anything but
    that the seat has committed."""
    s = to_nobles_phase()
    assert s["pending"]["kind"] == "nobles" and ENGINE.to_move(s) == [0, 1, 2]
    legal = ENGINE.legal_actions(s, 0)
    assert len(legal) == 29520 and len({canonical(a) for a in legal}) == len(legal)
    a = commit(s, 0, [3, 5, 0, 1, 2, 4])
    b = commit(s, 0, [5, 3, 0, 1, 2, 4])  # the same tiles moved about: another layout
    c = commit(s, 0, [0, 0, 1, 1, 2, 2])
    for viewer in (None, 1, 2):
        assert canonical(ENGINE.view(a, viewer)) == canonical(ENGINE.view(b, viewer))
        assert canonical(ENGINE.view(a, viewer)) == canonical(ENGINE.view(c, viewer))
    assert ENGINE.view(a, 0)["your_nobles"] == dict(zip(SLOT_ORDER, [3, 5, 0, 1, 2, 4]))
    assert ENGINE.view(a, 0)["nobles_placed"] == [6, 0, 0] and ENGINE.to_move(a) == [1, 2]
    assert canonical(ENGINE.view(a, 0)) != canonical(ENGINE.view(b, 0))
    assert ENGINE.legal_actions(a, 0) == [] and ENGINE.offered_actions(a, 0) == []
    # Each tile must be in hand: there are two of each value.
    with pytest.raises(NotLegal, match="no noble tile of value 3 left to put on ukraine") as err:
        commit(s, 0, [3, 3, 3, 1, 2, 4])
    assert err.value.params == {"value": 3, "slot": "ukraine"}
    with pytest.raises(MalformedAction, match="needs \"royal\""):
        ENGINE.apply(s, 0, {"type": "place_nobles", **dict(zip(PROVINCES, [0, 1, 2, 3, 4]))})
    with pytest.raises(NotYourTurn, match="placed all your nobles"):
        commit(a, 0, [3, 5, 0, 1, 2, 4])


def test_a_client_is_offered_the_nobles_decision_in_one_entry():
    """29,520 layouts are too many to send: a client is offered one entry naming its tiles
    and sends one layout back (docs/engines.md); every other decision is offered as listed."""
    s = to_nobles_phase()
    hand = sorted(s["hand"][1])
    assert ENGINE.offered_actions(s, 1) == [{"type": "place_nobles", "tiles": hand}]
    # A bot playing from what a client is sent still answers with a layout (the platform test's script).
    chosen = ENGINE.bots["heuristic"](ENGINE.view(s, 1), ENGINE.offered_actions(s, 1), random.Random(0))
    assert chosen in ENGINE.legal_actions(s, 1)
    after = commit(commit(commit(s, 0, [0, 1, 2, 3, 4, 5]), 1, [0, 1, 2, 3, 4, 0]), 2, [5, 4, 3, 2, 1, 0])
    # Round 2 offers the six tiles left.
    for seat in ENGINE.to_move(after):
        assert ENGINE.offered_actions(after, seat) == ENGINE.legal_actions(after, seat)


def test_reveal_places_cubes_equal_to_the_tiles():
    s = to_nobles_phase()
    tiles = {0: [5, 4, 3, 2, 1, 0], 1: [0, 1, 2, 3, 4, 5], 2: [2, 2, 3, 3, 4, 4]}
    for seat in range(3):
        s = commit(s, seat, tiles[seat])
    assert s["start"] == 1  # seat 1 put the highest tile (5) on the royal box
    assert s["revealed"][2] == dict(zip(SLOT_ORDER, tiles[2]))
    # Cubes as revealed, less one for each clear election winner (Prussia, Lithuania: seat 0).
    got = {p: s["prov"][p]["nobles"] for p in PROVINCES}
    assert got == {"prussia": [4, 0, 2], "lithuania": [3, 1, 2], "ukraine": [3, 2, 3],
                   "little_poland": [2, 3, 3], "great_poland": [1, 4, 4]}
    assert s["sejm"] == {"prussia": 0, "lithuania": 0, "ukraine": None, "little_poland": None, "great_poland": None}
    assert sorted(s["hand"][0]) == sorted(set(BOARD["noble_tiles"]))  # the other six wait for round 2


def test_sealed_bids_are_hidden_until_all_are_in():
    """Rulebook p.5: equal royal tiles are decided by secret simultaneous bids, all paid."""
    s = to_nobles_phase()
    tiles = {0: [0, 1, 1, 2, 3, 4], 1: [0, 1, 2, 2, 3, 4], 2: [0, 0, 3, 3, 5, 1]}
    for seat in range(3):
        s = commit(s, seat, tiles[seat])
    assert s["pending"]["kind"] == "bid" and ENGINE.to_move(s) == [0, 1]
    a = ENGINE.apply(s, 0, {"type": "bid", "amount": 2})
    b = ENGINE.apply(s, 0, {"type": "bid", "amount": 7})
    for viewer in (None, 1, 2):
        assert canonical(ENGINE.view(a, viewer)) == canonical(ENGINE.view(b, viewer))
    money = list(b["money"])
    after = ENGINE.apply(b, 1, {"type": "bid", "amount": 3})
    assert after["start"] == 0
    assert after["money"] == [money[0] - 7, money[1] - 3, money[2]]


def test_tied_bids_are_paid_and_repeated():
    s = to_nobles_phase()
    tiles = {0: [0, 1, 1, 2, 3, 4], 1: [0, 1, 2, 2, 3, 4], 2: [0, 0, 3, 3, 5, 1]}
    for seat in range(3):
        s = commit(s, seat, tiles[seat])
    money = list(s["money"])
    s = ENGINE.apply(s, 0, {"type": "bid", "amount": 2})
    s = ENGINE.apply(s, 1, {"type": "bid", "amount": 2})
    assert s["pending"]["kind"] == "bid" and s["money"][:2] == [money[0] - 2, money[1] - 2]
    s = ENGINE.apply(s, 0, {"type": "bid", "amount": 0})
    s = ENGINE.apply(s, 1, {"type": "bid", "amount": 1})
    assert s["start"] == 1


def test_a_tie_at_zero_ends_the_bidding_and_the_marker_stays_p5():
    """p.5: tied bids are paid and bid again "addig, amíg valaki nem győz", and when nobody
    tied can pay "a kezdőjátékos jelzője marad annál a játékosnál, akinél most van". A tie
    at zero costs nothing, so bidding again could go on for ever: it ends the same way (D3)."""
    s = to_nobles_phase()
    tiles = {0: [0, 1, 1, 2, 3, 4], 1: [0, 1, 2, 2, 3, 4], 2: [0, 0, 3, 3, 5, 1]}
    for seat in range(3):
        s = commit(s, seat, tiles[seat])
    holder, money = s["start"], list(s["money"])
    s = ENGINE.apply(s, 0, {"type": "bid", "amount": 1})
    s = ENGINE.apply(s, 1, {"type": "bid", "amount": 1})
    assert s["pending"]["kind"] == "bid"  # a paid tie is bid again
    s = ENGINE.apply(s, 0, {"type": "bid", "amount": 0})
    s, events = ENGINE.step(s, 1, {"type": "bid", "amount": 0})
    assert s["start"] == holder and s["money"][:2] == [money[0] - 1, money[1] - 1]
    assert s["phase"] != "king" and (s["pending"] or {}).get("kind") != "bid"
    assert any(e["kind"] == "king" and "stays" in e["text"] for e in events)


def test_players_who_always_bid_zero_cannot_stall_the_game():
    """D3: seats that always bid nothing (a bot, an idle player's client) still let the game
    end; before the rule a tie at zero asked for bids again for ever."""
    rng = random.Random(2)
    ties = 0
    for seed in range(8):
        s = ENGINE.setup(3, seed=seed)
        for _ in range(3000):
            if ENGINE.is_over(s):
                break
            seat = rng.choice(ENGINE.to_move(s))
            legal = ENGINE.legal_actions(s, seat)
            bids = [a for a in legal if a["type"] == "bid"]
            ties += bool(bids)
            s = ENGINE.apply(s, seat, bids[0] if bids else rng.choice(legal))
        assert ENGINE.is_over(s), seed
    assert ties  # some election was tied, so the rule was exercised


def test_views_hide_the_rng_and_future_dice():
    s = ENGINE.setup(3, seed=4, options={"dice": [6, 6, 6]})
    for viewer in (None, 0, 1, 2):
        v = ENGINE.view(s, viewer)
        assert "rng" not in v and "dice_queue" not in v and "seed" not in v and "secret" not in v
        json.dumps(v)
    other = dict(s, dice_queue=[1, 2, 3], rng=12345)
    assert canonical(ENGINE.view(other, 0)) == canonical(ENGINE.view(s, 0))


def test_bots_finish_games():
    from functools import partial

    from backend.engines.bots_common import play_bots

    for name, bot in ENGINE.bots.items():
        # The master bot searches one sampled world a move, not its server second (test_bots.py does the same).
        if getattr(bot, "searches", False):
            bot = partial(bot, iterations=1)
        state, steps = play_bots(ENGINE, [bot] * 3, seed=11)
        assert ENGINE.is_over(state) and steps > 50
