// The decisions but the nobles' layout and the bids: every legal action grouped and labelled (nothing here
// decides what is legal). Loaded with its words and look by table.js; a second question opens chooser.js.
import { html } from "../../lib.js";
import { t } from "../../i18n.js";
import { enemyName, homeOf, phaseName, printed, provinceName, unitName } from "./layout.js";
import { describeAction } from "../actions.js";
import { actionHelp } from "./help.js";

const disc = (a) => (a.disc ? t("gp.disc", { p: provinceName(a.disc) }) : undefined);
// A seat short of cubes: the cubes its tiles still ask for in each province (the shortage's demand).
const wanted = (view) => ((view.pending && view.pending.demand) || [])[view.you] || {};
const estate = (a, view) => t("gp.estate_at", { vp: printed(view).estate_vp[a.province][a.space], n: a.space + 1 });

/** How a legal action is offered: `group` (heading), `label` (button), `note` (a smaller line under the label),
 * `sub` (the second question when several share a label, e.g. which Sejm disc to give up). Unknown types fall
 * back to describeAction. */
export function actionLabel(a, view, names) {
  const p = a.province && provinceName(a.province);
  const g = (label, sub, group = a.type) => ({ group: t(`gp.g.${group}`), label, sub });
  switch (a.type) {
    case "place_estate": case "buy_estate": return g(t(`gp.a.${a.type}`, { p }));
    case "reduce_nobles": { // the province, and under it the cubes wanted there and one fewer
      const n = wanted(view)[a.province] || 0;
      return { ...g(p), note: t("gp.a.reduce_nobles", { n, m: n - 1, count: n }) };
    }
    case "steward": case "town": return g(t(`gp.a.${a.type}`, { p }), estate(a, view));
    case "danzig": return g(t("gp.a.danzig"));
    case "stop": return g(t("gp.a.stop"), undefined, "move_cube");
    case "diplomacy": return g(t("gp.a.diplomacy", { enemy: enemyName(a.enemy) }), disc(a));
    case "move_cube": return g(a.from ? t("gp.a.move_from", { p: provinceName(a.from) }) : t("gp.a.move"), t("gp.to", { p: provinceName(a.to) }));
    case "liberum_veto": return g(t("gp.a.liberum_veto"), t("gp.pay_from", { p }));
    case "right_of_arms": return g(t("gp.a.right_of_arms", { p }), t("gp.from", { name: names(a.target) }));
    case "jesuits": return { ...g(t("gp.a.jesuits")), set: a.provinces };
    case "recruit": return g(`${unitName(a.unit)} · ${p}`);
    case "campaign": return a.royal ? g(t("gp.a.campaign_royal", { enemy: enemyName(a.enemy) }), disc(a))
      : g(t("gp.a.campaign", { enemy: enemyName(a.enemy), p: provinceName(homeOf(view, a.enemy)) }));
    case "counterattack": {
      const label = a.target === "habsburg" ? t("gp.a.counter_habsburg") : t("gp.a.counter", { p: provinceName(a.target) });
      return g(a.disc ? label : `${label} ${t("gp.free")}`, disc(a));
    }
    case "bid": return g(t("gp.a.bid", { count: a.amount }));
    case "pass": {
      const kind = view.pending && view.pending.kind;
      return { group: t("gp.g.pass"), label: t(PASSES.has(kind) ? `gp.pass.${kind}` : "gp.g.pass") };
    }
    case "recruit_done": return { group: t("gp.g.pass"), label: t("gp.done.recruitment") };
    case "recruit_resume": return { group: t("gp.g.pass"), label: t("gp.done.resume") };
    default: return { group: t("gp.g.other"), label: describeAction(a) };
  }
}

const PASSES = new Set(["estate_purchase", "special", "recruitment", "campaigns", "counterattack"]);


/** Legal actions grouped by heading, then by button label; several actions under one label ask a second question.
 * The decision's `help` line heads the list, so on a phone it scrolls with the moves and the passes stay below. */
export function ActionGroups({ legal, view, names, send, pending, setChooser, help }) {
  const groups = new Map();
  const passes = [];
  for (const a of legal) {
    if (a.type === "place_nobles" || a.type === "bid") continue; // their own panels
    const l = actionLabel(a, view, names);
    if (a.type === "pass" || a.type === "recruit_done" || a.type === "recruit_resume") { passes.push([a, l.label]); continue; }
    // Recruitment reads best as one row per province.
    const g = a.type === "recruit" ? t("gp.recruit_in", { p: provinceName(a.province) }) : l.group;
    if (!groups.has(g)) groups.set(g, new Map());
    const byLabel = groups.get(g);
    const label = a.type === "recruit" ? unitName(a.unit) : l.label;
    if (!byLabel.has(label)) byLabel.set(label, []);
    byLabel.get(label).push({ action: a, ...l });
  }
  if (!groups.size && !passes.length) return null;
  function press(label, items) {
    if (items.length === 1 && !items[0].set) { send(items[0].action); return; }
    if (items[0].set) setChooser({ title: t("gp.jesuits_q"), set: true, options: items });
    else setChooser({ title: label, options: items.map((i) => ({ action: i.action, label: i.sub || i.label })) });
  }
  return html`<div class="gp-groups">
    <div class="gp-group-list">${help && html`<p class="muted gp-help">${help}</p>`}${[...groups].map(([g, byLabel]) => html`<div class="gp-group" role="group" aria-label=${g}
      data-group=${[...byLabel.values()][0][0].action.type}>
      <h3>${g}</h3>
      <div class="chips">${[...byLabel].map(([label, items]) => html`<button type="button" class="btn gp-move"
        data-testid="gp-move" data-type=${items[0].action.type} disabled=${pending}
        aria-haspopup=${items.length > 1 || items[0].set ? "dialog" : undefined}
        onClick=${() => press(label, items)} ...${actionHelp(items[0].action.type, items[0].note ? `${label}: ${items[0].note}` : label)}><span>${label}</span>${items[0].note && html` <small class="gp-move-note">${items[0].note}</small>`}${(items.length > 1 || items[0].set) && html`<span class="gp-more" aria-hidden="true">›</span>`}</button>`)}</div>
    </div>`)}</div>
    ${passes.length > 0 && html`<div class="gp-passes">${passes.map(([a, label]) => html`<button type="button"
      class="btn btn-pass gp-pass" data-testid="gp-move" data-type=${a.type} disabled=${pending}
      onClick=${() => send(a)} ...${actionHelp(a.type, label)}>${label}</button>`)}</div>`}
  </div>`;
}

/** What a decision needs to know, in one line under its heading. */
export function decisionHelp(kind, view) {
  switch (kind) {
    case "setup_estate": case "estate_purchase": case "campaigns": case "counterattack": return t(`gp.h.${kind}`);
    case "shortage": return t("gp.h.shortage", { want: Object.values(wanted(view)).reduce((a, b) => a + b, 0),
      have: view.supply.cubes[view.you] });
    case "special": return t(view.pending.second ? "gp.h.special_second" : "gp.h.special");
    case "recruitment": return t("gp.h.recruitment", printed(view).unit_cost);
    default: return "";
  }
}


/** The player's decision in the dock (the nobles' layout is nobles.js's, the bids bid.js's). */
export function Decision({ view, legal, names, send, pending, setChooser, kind }) {
  // Out of the recruitment by the player's own word: the one move is taking it back (not a turn of theirs).
  const out = legal.length === 1 && legal[0].type === "recruit_resume";
  const help = out ? t("gp.h.recruit_out") : decisionHelp(kind, view);
  return html`<section class="panel gp-decision" aria-labelledby="decide-title" data-testid="decision">
    <h2 id="decide-title">${view.pending && view.pending.second ? t("gp.second_cube") : phaseName(view.phase)}</h2>
    <${ActionGroups} legal=${legal} view=${view} names=${names} send=${send} pending=${pending} setChooser=${setChooser}
      help=${help} />
  </section>`;
}
