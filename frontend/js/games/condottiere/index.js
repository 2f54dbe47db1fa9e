// Loads the Condottiere table only when a Condottiere match opens. Every module
// of the folder is requested at once: one round trip instead of an import waterfall.
import { lazyTable } from "../lazy.js";

export const CondottiereTable = lazyTable(() => Promise.all([
  import("./table.js"), import("./parts.js"), import("./map.js"), import("./board.js"), import("./cards.js"),
]).then(([m]) => m.CondottiereTable));
