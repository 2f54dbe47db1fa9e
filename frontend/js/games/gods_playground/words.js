// Words for God's Playground built from the catalogue (gp.*): action labels,
// province descriptions for screen readers and the status line (the log's are
// ../narrate.js's).
import { list, t } from "../../i18n.js";
import { describeAction } from "../actions.js";
import { enemyName, homeOf, phaseName, printed, provinceName, unitName } from "./layout.js";

const disc = (a) => (a.disc ? t("gp.disc", { p: provinceName(a.disc) }) : undefined);
const estate = (a, view) => t("gp.estate_at", { vp: printed(view).estate_vp[a.province][a.space], n: a.space + 1 });

/**
 * How one legal action is offered: `group` (the heading), `label` (the button)
 * and `sub` (the second question when several actions share a label, such as
 * which Sejm disc to give up). Unknown types fall back to describeAction.
 */
export function actionLabel(a, view, names) {
  const p = a.province && provinceName(a.province);
  const g = (label, sub, group = a.type) => ({ group: t(`gp.g.${group}`), label, sub });
  switch (a.type) {
    case "place_estate": case "buy_estate": case "reduce_nobles": return g(t(`gp.a.${a.type}`, { p }));
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
    default: return { group: t("gp.g.other"), label: describeAction(a) };
  }
}

const PASSES = new Set(["estate_purchase", "special", "recruitment", "campaigns", "counterattack"]);

export function describeProvince(p, view, names) {
  const pr = view.prov[p];
  const parts = [t("gp.d.income", { p: provinceName(p), n: pr.income })];
  const owned = pr.estates.map((o, i) => (o == null ? null : [t("gp.d.estate", { name: names(o), vp: printed(view).estate_vp[p][i] }),
    pr.stewards[i] && t("gp.d.steward"), pr.towns[i] && t("gp.d.town")].filter(Boolean).join(" "))).filter(Boolean);
  const free = pr.estates.filter((o) => o == null).length;
  parts.push(owned.length ? t("gp.d.estates", { list: owned.join("; "), free: t("gp.d.free", { count: free }) }) : t("gp.d.no_estates"));
  parts.push(t("gp.d.nobles", { list: [0, 1, 2].map((s) => `${names(s)} ${pr.nobles[s]}`).join(", ") }));
  const enemy = Object.entries(pr.enemy).filter(([, n]) => n > 0).map(([c, n]) => t("gp.d.enemy_cubes", { count: n, enemy: enemyName(c) }));
  if (enemy.length) parts.push(t("gp.d.enemy", { list: enemy.join(", ") }));
  if (pr.influence) parts.push(t("gp.d.influence", { count: pr.influence }));
  const units = pr.units.map((u, s) => (u.some(Boolean) ? t("gp.d.units_of", { name: names(s), i: u[0], c: u[1], k: u[2] }) : null)).filter(Boolean);
  if (units.length) parts.push(t("gp.d.units", { list: units.join("; ") }));
  if (p === "ukraine" && view.cossacks.ukraine) parts.push(t("gp.d.cossacks", { count: view.cossacks.ukraine }));
  const sejm = view.sejm[p];
  parts.push(sejm == null ? t("gp.d.sejm_empty") : t("gp.d.sejm", { name: names(sejm) }));
  return parts.join(". ");
}

export function statusText(view, names, mine) {
  const who = list((view.to_move || []).map(names));
  const pend = view.pending;
  if (view.over) return t("table.over");
  if (!pend) return `${phaseName(view.phase)}…`;
  if (STATUSES.has(pend.kind)) return t(`gp.st.${pend.kind}${mine ? "_mine" : ""}`, { who });
  return t(mine ? "gp.st.turn_mine" : "gp.st.turn", { who, phase: phaseName(view.phase).toLowerCase() });
}

const STATUSES = new Set(["setup_estate", "nobles", "shortage", "bid"]);
