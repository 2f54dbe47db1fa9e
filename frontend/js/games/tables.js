// Which table shows which game: each a loader (../lazy.js) that, on first use, requests every module of the
// game's folder the table shows at once, its stylesheet and its words: one round instead of an import
// waterfall, and a page never downloads another game's code (God's Playground's decision panels load with
// its first decision, its table.js).
import { loadWords } from "../i18n.js";
import { lazyTable, loadCss } from "../lazy.js";

const TABLES = {
  condottiere: lazyTable(() => Promise.all([
    import("./condottiere/table.js"), import("./condottiere/parts.js"), import("./condottiere/map.js"),
    import("./condottiere/board.js"), import("./condottiere/cards.js"), loadCss("/app/condottiere.css"), loadWords("condottiere"),
  ]).then(([m]) => m.CondottiereTable)),
  gods_playground: lazyTable(() => Promise.all([
    import("./gods_playground/table.js"), import("./gods_playground/parts.js"), import("./gods_playground/map.js"),
    import("./gods_playground/words.js"), import("./gods_playground/layout.js"), import("./gods_playground/help.js"),
    import("./gods_playground/family_mark.js"),
    loadCss("/app/gp.css"), loadWords("gods_playground"),
  ]).then(([m]) => m.GodsPlaygroundTable)),
};
// The fallback table, for a game without its own screen.
const GenericTable = lazyTable(() => Promise.all([import("./generic/table.js"), loadCss("/app/result.css"), loadCss("/app/generic.css")])
  .then(([m]) => m.GenericTable));

export function tableFor(gameId) {
  return TABLES[gameId] || GenericTable;
}

/** Starts downloading a game's table before it is needed (a no-op for a game without its own). */
export function preloadTable(gameId) {
  const T = TABLES[gameId];
  if (T) T.preload();
}
