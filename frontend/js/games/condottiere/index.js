// Loads the Condottiere table (its modules, condottiere.css and its words) only
// when a Condottiere match opens. Everything is requested at once: one round
// trip instead of an import waterfall.
import { loadWords } from "../../i18n.js";
import { lazyTable, loadCss } from "../../lazy.js";

export const CondottiereTable = lazyTable(() => Promise.all([
  import("./table.js"), import("./parts.js"), import("./map.js"), import("./board.js"), import("./cards.js"),
  loadCss("/app/condottiere.css"), loadWords("condottiere"),
]).then(([m]) => m.CondottiereTable));
