"""Condottiere bots: `choose(view, legal_actions, rng) -> action`.

The heuristic bot reads only its seat's view (docs/engines.md, "View"): its
own hand, the face-up battle lines, hand counts and the map.  Its ideas:

* A round lasts until at most one player holds cards, and cards left then are
  lost (but two), so each card has a cost that falls as the round runs out.
* A battle is worth more when the region grows the bot's largest group or
  wins the game, and when it stops an opponent from winning.
* While opponents can still play, stay in cheaply (a small card that adds
  strength; while ahead, a Scarecrow taking nothing) and let them spend; once they have passed, add just enough to
  beat the best line, or fold if that costs more than the region is worth.
* Every special card is judged by simulating its effect on the visible lines
  (Winter, Spring, Drummer, Bishop), Surrender when ahead, Scarecrow to take
  back a big mercenary from a lost battle.
"""

from __future__ import annotations

import random

from ..bots_common import random_bot
from .board import ADJACENCY, largest_group
from .cards import MERCENARY_VALUES, PRINTED, line_totals

# What holding a card is worth for later battles (strength it can add).
KEEP_VALUE = {
    **MERCENARY_VALUES, "heroine": 10, "courtesan": 1.5, "drummer": 4, "spring": 3, "winter": 3,
    "bishop": 3, "surrender": 7, "scarecrow": 0.7,
}
# A face-down card of another player is guessed at the average strength of one played.
HIDDEN_GUESS = 4
WIN = 12  # value of a region that ends the game


# ---- reading the view ------------------------------------------------------------


def _owners(view) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {p["seat"]: [] for p in view["players"]}
    for region, seat in view["regions"].items():
        if seat is not None:
            out[seat].append(region)
    return out


def region_gain(view, seat: int, region: str, owned: dict) -> float:
    """How much taking `region` is worth to `seat`: a win, or growth of its largest group."""
    mine = owned[seat]
    if region in mine:
        return 0.0
    after = mine + [region]
    targets = view["targets"]
    if len(after) >= targets["total"] or largest_group(after) >= targets["adjacent"]:
        return WIN
    growth = largest_group(after) - largest_group(mine) if mine else 1
    neighbours = sum(1 for nb in ADJACENCY[region] if nb in mine)
    return 1.0 + 1.2 * growth + 0.3 * neighbours + 0.4 * len(mine)


def battle_value(view, me: int, owned: dict) -> float:
    """What this battle is worth to me: my gain, plus stopping an opponent's win."""
    region = view["battle"]["region"]
    if region is None:
        return 1.0
    value = region_gain(view, me, region, owned)
    threat = max((region_gain(view, s, region, owned) for s in owned if s != me), default=0)
    if threat >= WIN:
        value += WIN / 2
    return value


def _lines(view, me: int):
    """Visible card codes per seat (my own face-down cards included), and hidden counts."""
    codes, hidden = {}, {}
    for line in view["battle"]["lines"]:
        codes[line["seat"]] = [c["card"] for c in line["cards"] if "card" in c]
        hidden[line["seat"]] = sum(1 for c in line["cards"] if "card" not in c)
    return codes, hidden


def _strengths(codes: dict, hidden: dict) -> dict[int, float]:
    seats = sorted(codes)
    totals = line_totals([codes[s] for s in seats])
    return {s: t + HIDDEN_GUESS * hidden[s] for s, t in zip(seats, totals)}


def simulate(codes: dict, me: int, action: dict) -> dict:
    """The lines after my action, as far as the visible cards tell."""
    card = action.get("card")
    new = {s: list(c) for s, c in codes.items()}
    if card == "winter" or card == "spring":
        other = "spring" if card == "winter" else "winter"
        new = {s: [c for c in line if c != other] for s, line in new.items()}
        new[me].append(card)
    elif card == "bishop":
        top = max((MERCENARY_VALUES.get(c, 0) for line in new.values() for c in line), default=0)
        new = {s: [c for c in line if MERCENARY_VALUES.get(c, -1) != top] for s, line in new.items()}
    elif card == "scarecrow":
        if action.get("take"):
            new[me].remove(action["take"])
    elif card in PRINTED or card == "drummer":
        new[me].append(card)
    return new


# ---- the heuristic bot -------------------------------------------------------------


def heuristic(view: dict, legal: list[dict], rng: random.Random) -> dict:
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    choose = _PHASES.get(phase)
    return choose(view, legal, rng) if choose else random_bot(view, legal, rng)


def _cost_scale(view, me: int) -> float:
    """Cards are cheap when the round is about to end (only two may be kept)."""
    others = sum(p["hand_count"] for p in view["players"] if p["seat"] != me)
    return min(1.0, 0.25 + others / 14)


def _card_cost(card: str, view, me: int) -> float:
    return KEEP_VALUE.get(card, 1.0) * _cost_scale(view, me)


def choose_battle(view, legal, rng):
    me = view["seat"]
    owned = _owners(view)
    codes, hidden = _lines(view, me)
    lines = {line["seat"]: line for line in view["battle"]["lines"]}
    players = {p["seat"]: p for p in view["players"]}
    opponents = [s for s in codes if s != me]
    active = [s for s in opponents if not lines[s]["passed"] and players[s]["hand_count"] > 0]
    now = _strengths(codes, hidden)
    best_opp = max((now[s] for s in opponents), default=0)
    value = battle_value(view, me, owned)
    hand = view["hand"] or []
    budget = value * (1.5 + sum(KEEP_VALUE.get(c, 1) for c in hand) / max(4, len(hand) + 2))

    plays = [a for a in legal if a["type"] == "play"]
    passes = [a for a in legal if a["type"] == "pass"]
    waits = [a for a in legal if a["type"] == "wait"]
    idle = [a for a in plays if _idle(a)]
    pass_action = next((a for a in passes if not a.get("reveal")), passes[0] if passes else legal[0])

    def outcome(action):
        after = _strengths(simulate(codes, me, action), hidden)
        return after[me] - max((after[s] for s in opponents), default=0)

    scored = []
    for action in plays:
        if action["card"] == "surrender":
            continue
        if action["card"] == "scarecrow" and action.get("take"):
            continue
        margin = outcome(action)
        scored.append((margin, _card_cost(action["card"], view, me), action))
    margin_now = now[me] - best_opp

    if _stalled(view):
        adding = [(m, -cost, a) for m, cost, a in scored if m > margin_now]
        if adding:
            return max(adding, key=lambda t: (t[0] > 0, t[1]))[2]

    surrender = next((a for a in plays if a["card"] == "surrender"), None)
    if surrender and margin_now > 0 and active:
        return surrender

    if not active:
        if margin_now > 0:
            return pass_action
        winning = [(cost, m, a) for m, cost, a in scored if m > 0]
        if winning:
            cost, _, action = min(winning, key=lambda t: (t[0], -t[1]))
            if cost <= budget:
                return action
        # No single card wins: climb with the best gain per cost while the total stays affordable.
        helpful = [(m - margin_now, cost, a) for m, cost, a in scored if m > margin_now]
        need = -margin_now + 1
        if helpful and need <= _reachable(hand) and need <= budget * 2:
            return max(helpful, key=lambda t: t[0] / max(t[1], 0.3))[2]
        return _take_back(legal) or pass_action

    # Opponents may still play: stay in cheaply and let them spend.
    if margin_now > 0 or -margin_now <= budget:
        if waits:  # free
            return waits[0]
        # A Scarecrow taking nothing back adds no strength: the card is given up only to stay in, which
        # is worth it only while ahead (to answer later). Level or behind, a card that adds strength for
        # up to half the budget, or a pass that keeps the hand.
        cheap = 1.6 * _cost_scale(view, me) + 0.01
        limit = cheap if margin_now > 0 else budget / 2
        useful = [(cost, m, a) for m, cost, a in scored if m > margin_now and not _idle(a) and cost <= limit]
        if useful:
            return min(useful, key=lambda t: (t[0], -t[1]))[2]
        if idle and margin_now > 0 and _answer_later(view, me, hand, active, players):
            return idle[0]
        return pass_action
    return _take_back(legal) or pass_action


def _answer_later(view, me: int, hand, active, players) -> bool:
    """Whether an idle Scarecrow buys anything: it keeps me in only to answer later, which
    needs a card that adds strength after it, and an opponent who could still overtake."""
    rest = list(hand)
    rest.remove("scarecrow")
    adds = any(c in PRINTED or c == "drummer" for c in rest)
    return adds and any(players[s]["hand_count"] > 0 for s in active)


def _idle(action) -> bool:
    """A play that adds no strength and takes nothing back: a Scarecrow taking nothing (p. 15)."""
    return action["type"] == "play" and action["card"] == "scarecrow" and not action.get("take")


def _reachable(hand) -> float:
    return sum(PRINTED.get(c, 0) for c in hand) + (4 if "drummer" in hand else 0)


def _take_back(legal):
    """In a battle I give up on, a Scarecrow saves my biggest mercenary for later."""
    takes = [a for a in legal if a["type"] == "play" and a["card"] == "scarecrow" and a.get("take")]
    if not takes:
        return None
    best = max(takes, key=lambda a: MERCENARY_VALUES.get(a["take"], 0))
    return best if MERCENARY_VALUES.get(best["take"], 0) >= 4 else None


def _hand_power(view) -> float:
    return sum(KEEP_VALUE.get(c, 1) for c in (view["hand"] or []))


def choose_token_region(view, legal, rng):
    """Fight where a win grows my kingdom, and away from where a loss would crown a rival."""
    me = view["seat"]
    owned = _owners(view)
    players = {p["seat"]: p for p in view["players"]}
    strong = _hand_power(view) >= 1.5 * max(
        (players[s]["hand_count"] * 2.5 for s in players if s != me), default=0
    )

    def score(action):
        region = action["region"]
        mine = region_gain(view, me, region, owned)
        theirs = max((region_gain(view, s, region, owned) for s in owned if s != me), default=0)
        return (mine if strong else mine * 0.6) - 0.7 * theirs + rng.random() * 0.01

    return max(legal, key=score)


def choose_legate(view, legal, rng):
    """Put the legate where the leader would grow most, not where I want to fight."""
    me = view["seat"]
    owned = _owners(view)
    rivals = [s for s in owned if s != me]
    leader = max(rivals, key=lambda s: (len(owned[s]), largest_group(owned[s]), rng.random()))

    def score(action):
        region = action["region"]
        if region is None:
            return 0.5
        return region_gain(view, leader, region, owned) - region_gain(view, me, region, owned) + rng.random() * 0.01

    return max(legal, key=score)


def _stalled(view) -> bool:
    """The last battle ended with every line at 0: players are sitting on cards that
    add no strength, and the game could go round in circles unless someone moves."""
    last = view.get("last_battle")
    return bool(last) and last.get("winner") is None and not any(last.get("strengths") or [])


def choose_discard(view, legal, rng):
    """Throw away a hand that cannot add strength, or a weak one when the round then ends."""
    me = view["seat"]
    hand = view["hand"] or []
    others_with_cards = sum(1 for p in view["players"] if p["seat"] != me and p["hand_count"] > 0)
    useless = not any(c in PRINTED for c in hand)  # no mercenary here, so: no Heroine, no Courtesan
    weak = _hand_power(view) < 6
    discard = useless or _stalled(view) or (weak and others_with_cards <= 1)
    wanted = "discard_hand" if discard else "keep_hand"
    return next((a for a in legal if a["type"] == wanted), legal[0])


def choose_keep(view, legal, rng):
    return max(legal, key=lambda a: sum(KEEP_VALUE.get(c, 1) for c in a.get("cards", [])))


_PHASES = {
    "battle": choose_battle,
    "place_token": choose_token_region,
    "legate": choose_legate,
    "discard_hand": choose_discard,
    "keep": choose_keep,
}

# ---- the beginner ------------------------------------------------------------------


def beginner(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Simple and sensible: in a battle, the smallest card that takes the lead while the
    region is worth it, else a pass; specials only as plain strength; the token where
    its own kingdom grows most.  Never a card given up for nothing."""
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    if phase == "battle":
        return _beginner_battle(view, legal, rng)
    if phase == "place_token":
        owned = _owners(view)
        return max(legal, key=lambda a: region_gain(view, view["seat"], a["region"], owned) + rng.random() * 0.01)
    if phase == "discard_hand":
        useless = not any(c in PRINTED for c in view["hand"] or [])
        wanted = "discard_hand" if useless else "keep_hand"
        return next((a for a in legal if a["type"] == wanted), legal[0])
    if phase == "keep":
        return choose_keep(view, legal, rng)
    return rng.choice(legal)  # the legate: anywhere


def _beginner_battle(view, legal, rng):
    me = view["seat"]
    codes, hidden = _lines(view, me)
    now = _strengths(codes, hidden)
    best_opp = max((now[s] for s in now if s != me), default=0)
    passes = [a for a in legal if a["type"] == "pass"]
    pass_action = next((a for a in passes if not a.get("reveal")), None)
    waits = [a for a in legal if a["type"] == "wait"]
    if now[me] > best_opp and pass_action:
        return pass_action
    if waits:
        return waits[0]
    plain = [a for a in legal if a["type"] == "play" and a["card"] in PRINTED]
    leading = [a for a in plain if now[me] + PRINTED[a["card"]] > best_opp]
    if leading and best_opp - now[me] < 10:
        return min(leading, key=lambda a: (PRINTED[a["card"]], a["card"]))
    return pass_action or min(plain, key=lambda a: PRINTED[a["card"]], default=None) or legal[0]


# The levels a lobby offers ("kezdő / haladó / mester"); "heuristic" is the advanced
# bot's old name, kept for the matches that stored it.  The master bot searches with
# the engine, so engine.py adds it (master.py).
BOTS = {"random": random_bot, "beginner": beginner, "advanced": heuristic, "heuristic": heuristic}
