// God's Playground's province descriptions (screen readers, help) and status line, from the gp.* words.
import { list, t } from "../../i18n.js";
import { enemyName, phaseName, printed, provinceName } from "./layout.js";

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

export function statusText(view, names, mine, status = "active") {
  const who = list((view.to_move || []).map(names));
  const pend = view.pending;
  // A match that ended (finished, aborted) keeps the game where it stopped: the status says so, not whose turn.
  if (status === "aborted") return t("table.aborted");
  if (view.over || status !== "active") return t("table.over");
  if (!pend) return `${phaseName(view.phase)}…`;
  if (STATUSES.has(pend.kind)) return t(`gp.st.${pend.kind}${mine ? "_mine" : ""}`, { who });
  return t(mine ? "gp.st.turn_mine" : "gp.st.turn", { who, phase: phaseName(view.phase).toLowerCase() });
}

const STATUSES = new Set(["setup_estate", "nobles", "shortage", "bid"]);
