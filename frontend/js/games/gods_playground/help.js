// What a God's Playground piece or move does, for the help sheet (js/help.js): a tap on a province, an enemy's
// box, the royal court or a phase, a long press on a move (a tap still makes it). What the sheet says
// (help_text.js) and the rules words it quotes come the first time help opens, so the table stays light.
import { helpOn } from "../../help.js";

const topic = (name, args, active = false) => helpOn(() => import("./help_text.js").then((m) => m[name](...args)),
  { active, words: "rules_gods_playground" });

export const provinceHelp = (p, view, names, active) => topic("province", [p, view, names], active);
export const boxHelp = (c, view) => topic("box", [c, view]);
export const courtHelp = () => topic("court", []);
export const phaseHelp = (id) => topic("phase", [id]);
export const actionHelp = (type, label) => topic("action", [type, label], true);
