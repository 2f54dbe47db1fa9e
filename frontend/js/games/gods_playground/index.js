// Loads the God's Playground table (its modules and gp.css) only when a God's
// Playground match opens. Every module of the folder is requested at once: one
// round trip instead of an import waterfall.
import { lazyTable, loadCss } from "../lazy.js";

export const GodsPlaygroundTable = lazyTable(() => Promise.all([
  import("./table.js"), import("./decide.js"), import("./parts.js"), import("./map.js"), import("./words.js"), import("./board.js"),
  loadCss("/app/gp.css"),
]).then(([m]) => m.GodsPlaygroundTable));
