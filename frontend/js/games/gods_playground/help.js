// What a God's Playground piece or move does, for the help sheet (js/help.js): a tap on a province, an enemy's
// box, the royal court or a phase, a long press on a move. The explanations are the rules page's words
// (rules_gods_playground), fetched the first time help opens, so the table itself stays light.
import { t } from "../../i18n.js";
import { helpOn } from "../../help.js";
import { enemyName, homeOf, phaseName, printed, provinceName } from "./layout.js";
import { describeProvince } from "./words.js";

const RULES = "/rules/gods_playground";
const WORDS = "rules_gods_playground";
const more = (anchor) => [[`${RULES}#${anchor}`, t("gp.help.reference")], [RULES, t("gp.help.rules")]];

/** A province tile: what lies on it now, then what a province is for. */
export const provinceHelp = (p, view, names, active) => helpOn(() => ({
  title: provinceName(p),
  text: [`${describeProvince(p, view, names)}.`, t("rg.help.province"), t(`rg.prov.${p}`)],
  more: more("provinces"),
}), { active, words: WORDS });

/** An enemy's box (the band on its province): who they are, when they attack, what driving them back is worth. */
export const boxHelp = (c, view) => helpOn(() => ({
  title: enemyName(c),
  text: [t(`rg.enemy.${c}`, { p: provinceName(homeOf(view, c)) }), t("rg.help.box", { vp: printed(view).enemy_vp[c] })],
  more: more("enemies"),
}), { words: WORDS });

export const courtHelp = () => helpOn(() => ({ title: provinceName("royal"), text: [t("rg.help.court"), t("rg.help.sejm")], more: more("phases") }),
  { words: WORDS });

export const phaseHelp = (id) => helpOn(() => ({ title: phaseName(id), text: t(`rg.phase.${id}`), more: more("phases") }), { words: WORDS });

/** A move button: a long press explains the kind of action (a tap still makes it). */
export const actionHelp = (type, label) => helpOn(() => ({ title: label, text: t(`rg.action.${type}`), more: more("actions") }),
  { active: true, words: WORDS });
