// Which table shows which game. Each is a loader (see ../lazy.js) that fetches the
// table's modules on first use, so a page never downloads another game's code.
import { CondottiereTable } from "./condottiere/index.js";
import { GenericTable } from "./generic/index.js";
import { GodsPlaygroundTable } from "./gods_playground/index.js";

const TABLES = { condottiere: CondottiereTable, gods_playground: GodsPlaygroundTable };

export function tableFor(gameId) {
  return TABLES[gameId] || GenericTable;
}

/** Starts downloading a game's table before it is needed (a no-op for a game without its own). */
export function preloadTable(gameId) {
  const T = TABLES[gameId];
  if (T && T.preload) T.preload();
}
