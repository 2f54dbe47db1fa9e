// Loads the God's Playground table (its modules, gp.css and its words) only when a God's
// Playground match opens. Every module of the folder the table shows at once is requested
// together: one round trip instead of an import waterfall. The decision panels (decide.js)
// load when the table first has a decision to show (table.js).
import { loadWords } from "../../i18n.js";
import { lazyTable, loadCss } from "../../lazy.js";

export const GodsPlaygroundTable = lazyTable(() => Promise.all([
  import("./table.js"), import("./parts.js"), import("./map.js"), import("./words.js"), import("./layout.js"), import("./help.js"),
  loadCss("/app/gp.css"), loadWords("gods_playground"),
]).then(([m]) => m.GodsPlaygroundTable));
