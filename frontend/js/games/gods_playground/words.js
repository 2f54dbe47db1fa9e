// Plain words for God's Playground: action labels, province descriptions for
// screen readers, the status line and the log with the players' own names.
import { describeAction } from "../actions.js";
import { ENEMY, ESTATE_VP, FAMILIES, UNIT_NAME, enemyName, phaseName, provinceName } from "./board.js";

const plural = (n, one, many = one + "s") => `${n} ${n === 1 ? one : many}`;
const disc = (a) => (a.disc ? `give up your Sejm seat for ${provinceName(a.disc)}` : "");

/**
 * How one legal action is offered: `group` (the heading), `label` (the button)
 * and `sub` (the second question when several actions share a label, such as
 * which Sejm disc to give up). Unknown types fall back to describeAction.
 */
export function actionLabel(a, view, names) {
  const P = provinceName;
  switch (a.type) {
    case "place_estate": return { group: "Starting estates", label: `Take an estate in ${P(a.province)}` };
    case "buy_estate": return { group: "Buy an estate", label: `Buy an estate in ${P(a.province)}` };
    case "reduce_nobles": return { group: "Too few cubes", label: `One cube fewer in ${P(a.province)}` };
    case "steward": return { group: "Steward", label: `Steward in ${P(a.province)}`, sub: `On your estate worth ${ESTATE_VP[a.province][a.space]} (space ${a.space + 1})` };
    case "danzig": return { group: "Danzig", label: "Trade through Danzig (a cube from Royal Prussia)" };
    case "diplomacy": return { group: "Diplomacy", label: `Treaty with the ${enemyName(a.enemy)}`, sub: cap(disc(a)) };
    case "move_cube": return { group: "Move cubes", label: a.from ? `Move a cube from ${P(a.from)}` : "Move a cube", sub: `To ${P(a.to)}` };
    case "stop": return { group: "Move cubes", label: "Stop: move no second cube" };
    case "liberum_veto": return { group: "Liberum veto", label: "Liberum veto: clear the Sejm", sub: `Pay the cube from ${P(a.province)}` };
    case "right_of_arms": return { group: "Right of arms", label: `Take an estate in ${P(a.province)}`, sub: `From ${names(a.target)}` };
    case "jesuits": return { group: "Jesuit schools", label: "Found Jesuit schools", set: a.provinces };
    case "town": return { group: "Town", label: `Found a town in ${P(a.province)}`, sub: `On your estate worth ${ESTATE_VP[a.province][a.space]} (space ${a.space + 1})` };
    case "recruit": return { group: "Recruit", label: `${UNIT_NAME[a.unit] || a.unit} in ${P(a.province)}` };
    case "campaign": return a.royal
      ? { group: "Campaign", label: `Against the ${enemyName(a.enemy)} with the royal army`, sub: cap(disc(a)) }
      : { group: "Campaign", label: `Against the ${enemyName(a.enemy)} with your units in ${P(ENEMY[a.enemy].home)}` };
    case "counterattack": return { group: "Royal counterattack",
      label: `Royal army against ${a.target === "habsburg" ? "the Turks in the Habsburg lands" : `the enemy in ${P(a.target)}`}${a.disc ? "" : " (free)"}`,
      sub: a.disc ? cap(disc(a)) : undefined };
    case "bid": return { group: "Bid", label: `Bid ${plural(a.amount, "taler")}` };
    case "pass": return { group: "Pass", label: PASS[view.pending && view.pending.kind] || "Pass" };
    default: return { group: "Other moves", label: describeAction(a) };
  }
}

const PASS = {
  estate_purchase: "Buy no more estates this round",
  special: "Take no special action",
  recruitment: "Recruit nothing now",
  campaigns: "Launch no more campaigns",
  counterattack: "Leave the royal army be",
};
const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

export function describeProvince(p, view, names) {
  const pr = view.prov[p];
  const parts = [`${provinceName(p)}: income ${pr.income}`];
  const owned = pr.estates.map((o, i) => (o == null ? null : `${names(o)} worth ${ESTATE_VP[p][i]}${pr.stewards[i] ? " with a steward" : ""}${pr.towns[i] ? " with a town" : ""}`)).filter(Boolean);
  parts.push(owned.length ? `estates: ${owned.join("; ")}; ${plural(pr.estates.filter((o) => o == null).length, "free space")}` : "no estates yet");
  parts.push(`noble cubes: ${[0, 1, 2].map((s) => `${names(s)} ${pr.nobles[s]}`).join(", ")}`);
  const enemy = Object.entries(pr.enemy).filter(([, n]) => n > 0).map(([c, n]) => `${plural(n, "cube")} of the ${enemyName(c)}`);
  if (enemy.length) parts.push(`enemy: ${enemy.join(", ")}`);
  if (pr.influence) parts.push(`${plural(pr.influence, "Habsburg influence marker")}`);
  const units = pr.units.map((u, s) => (u.some(Boolean) ? `${names(s)} ${u[0]} infantry, ${u[1]} cavalry, ${u[2]} cannon` : null)).filter(Boolean);
  if (units.length) parts.push(`units: ${units.join("; ")}`);
  if (p === "ukraine" && view.cossacks.ukraine) parts.push(plural(view.cossacks.ukraine, "Cossack"));
  const sejm = view.sejm[p];
  parts.push(sejm == null ? "Sejm seat empty" : `Sejm seat: ${names(sejm)}`);
  return parts.join(". ");
}

/** Engine texts name families; players know each other by name. Enemies by colour become peoples. */
export function logText(text, names) {
  let t = String(text || "");
  FAMILIES.forEach((f, s) => { t = t.split(f).join(names(s)); });
  return t.replace(/\bthe (black|green|yellow|orange|purple) enemy\b/g, (_, c) => `the ${enemyName(c)}`);
}

export function statusText(view, names, mine) {
  const movers = (view.to_move || []).map(names).join(", ");
  const pend = view.pending;
  if (view.over) return "The game is over.";
  if (!pend) return `${phaseName(view.phase)}…`;
  switch (pend.kind) {
    case "setup_estate": return mine ? "Choose a province for a starting estate." : `${movers} is choosing a starting estate.`;
    case "nobles": return mine ? "Place your noble tiles in secret." : `Waiting for ${movers} to place their nobles.`;
    case "shortage": return mine ? "You are short of cubes: choose where to place one fewer." : `${movers} is short of cubes.`;
    case "bid": return mine ? "Tie for the crown: make a sealed bid." : `Sealed bids for the crown: waiting for ${movers}.`;
    default: {
      const what = phaseName(view.phase).toLowerCase();
      return mine ? `Your turn: ${what}.` : `${movers} to act: ${what}.`;
    }
  }
}
