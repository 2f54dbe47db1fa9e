// Which table shows which game: each a loader (../lazy.js) that, on first use, requests every module its
// manifest's [table] names at once, with its stylesheets and its words: one round instead of an import
// waterfall, and a page never downloads another game's code (God's Playground's decision panels load with
// its first decision, its table.js).
import { loadWords } from "../i18n.js";
import { lazyTable, loadCss } from "../lazy.js";
import { GAMES, importPart } from "./registry.js";

const TABLES = Object.fromEntries(GAMES.filter((g) => g.table).map(({ id, table }) => [id, lazyTable(() =>
  importPart(table, [...table.styles.map((s) => loadCss(`/app/${s}`)), ...table.words.map(loadWords)]))]));
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
