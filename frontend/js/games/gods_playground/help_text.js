// What the help sheet says about a God's Playground piece or move (help.js): mostly the rules page's words
// (rules_gods_playground), which arrive with it the first time help opens.
import { t } from "../../i18n.js";
import { enemyName, homeOf, phaseName, printed, provinceName } from "./layout.js";
import { describeProvince } from "./words.js";

const RULES = "/rules/gods_playground";
const more = (anchor) => [[`${RULES}#${anchor}`, t("gp.help.reference")], [RULES, t("gp.help.rules")]];

/** A province tile: what lies on it now, then what a province is for. */
export const province = (p, view, names) => ({
  title: provinceName(p),
  text: [`${describeProvince(p, view, names)}.`, t("rg.help.province"), t(`rg.prov.${p}`)],
  more: more("provinces"),
});

/** An enemy's box (the band on its province): who they are, when they attack, what driving them back is worth. */
export const box = (c, view) => ({
  title: enemyName(c),
  text: [t(`rg.enemy.${c}`, { p: provinceName(homeOf(view, c)) }), t("rg.help.box", { vp: printed(view).enemy_vp[c] })],
  more: more("enemies"),
});

export const court = () => ({ title: provinceName("royal"), text: [t("rg.help.court"), t("rg.help.sejm")], more: more("phases") });

export const phase = (id) => ({ title: phaseName(id), text: t(`rg.phase.${id}`), more: more("phases") });

/** A move button: what the kind of action does. */
export const action = (type, label) => ({ title: label, text: t(`rg.action.${type}`), more: more("actions") });
