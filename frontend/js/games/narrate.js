// The match log's sentences, in the reader's language (frontend/README.md, the log): an event's `kind` picks
// `ev.<game>.<kind>` from the "<game>_events" words (`ev.platform.<kind>` from the site's), `_<reason>` added
// for a `reason`; its `params` fill the placeholders. Events stored before they were data show their `text`.
import { has, list, num, t } from "../i18n.js";

const PLATFORM = new Set(["seat_to_bot", "seat_back", "aborted"]);

// What each parameter holds, by its name (the engines name them so).
const SEAT = new Set(["seat", "by", "previous", "owner"]);
const SEATS = new Set(["seats", "winners", "ranking"]);
const TALLY = new Set(["strengths", "points", "bids"]); // a number per seat: a list, or {seat: n} for some seats
const CARD = new Set(["card", "take", "other"]);
const PROVINCE = new Set(["province", "from", "dest", "slot"]);

const card = (code) => t(`cd.card.${code}`);
const province = (p) => t(`gp.prov.${p}`);
// Condottiere's regions carry their cities' own (Italian) names in every language: the id, capitalised.
const region = (id) => id.charAt(0).toUpperCase() + id.slice(1);
const tally = (v, names) => (Array.isArray(v) ? v.map((n, s) => [s, n]) : Object.entries(v))
  .map(([s, n]) => `${names(Number(s))}: ${num(n)}`).join(", ");

function word(name, v, names) {
  if (v == null) return "";
  if (SEAT.has(name)) return names(v);
  if (SEATS.has(name)) return list(v.map(names));
  if (TALLY.has(name)) return tally(v, names);
  if (CARD.has(name)) return card(v);
  if (name === "cards") return list(v.map(card));
  if (name === "region") return region(v);
  if (PROVINCE.has(name)) return province(v);
  if (name === "tiles") return Object.entries(v).map(([p, n]) => `${province(p)} ${num(n)}`).join(", ");
  if (name === "enemy") return t(`gp.enemy.${v}`);
  if (name === "unit") return t(`gp.unit.${v}`);
  if (name === "phase") return t(`gp.phase.${v}`);
  if (name === "dice") return v.map(num).join(", ");
  return typeof v === "number" ? num(v) : String(v);
}

/** The catalogue key that words `event` in the game `game`. */
export function narratorKey(event, game) {
  const ns = PLATFORM.has(event.kind) ? "platform" : game;
  const reason = event.params && event.params.reason;
  const suffix = reason ? "_" + reason : "";
  return `ev.${ns}.${event.kind}${suffix}`;
}

/** A stored event from before events were data: its English text, seats by their players' names. */
function storedText(event, names) {
  return String(event.text || "").replace(/\bSeat (\d+)/g, (_, n) => names(Number(n)));
}

/** One log line for `event` in the current language; `names(seat)` names a seat, `game` picks the words. */
export function narrate(event, names, game) {
  const params = event.params;
  if (!params) return storedText(event, names);
  const key = narratorKey(event, game);
  if (!has(key)) {
    t(key); // reports the missing words loudly (the browser tests fail on it)
    return storedText(event, names);
  }
  const values = {};
  for (const [name, v] of Object.entries(params)) values[name] = word(name, v, names);
  if (event.seat != null) values.seat = names(event.seat);
  if (!("count" in params)) {
    // A sentence about several seats agrees with how many there are ("win" / "wins").
    const many = Object.keys(params).find((n) => SEATS.has(n));
    if (many) values.count = params[many].length;
  }
  return t(key, values);
}
