// The games this site offers, as their manifests describe them (backend/games/registry.py): the server writes
// each game's parts into the shell's boot data (its name in the page's language, its table's and rules page's
// modules, stylesheets and words, its log's words), so no module of the app names a game.
import { language } from "../i18n.js";

function bootGames() {
  try {
    return JSON.parse(document.getElementById("boot").textContent).games || [];
  } catch {
    return [];
  }
}

/** [{id, name, pitch, default_players, table, events, rules}], in the site's order; `name` and `pitch` are
 * {language: text}; `table` and `rules` are null or {module, export, modules, styles, words}, paths under /app/. */
export const GAMES = bootGames();

export function gameInfo(id) {
  return GAMES.find((g) => g.id === id) || null;
}

/** A manifest's {language: text} in the page's language, else in English. */
export function inLanguage(texts) {
  return texts ? texts[language()] || texts.en : undefined;
}

/** The games with a rules page at /rules/<id> and a place on the home page. */
export const GAMES_WITH_RULES = GAMES.filter((g) => g.rules).map((g) => g.id);

/** Loads a part ({module, modules}) in one round: its module, what comes with it; resolves to its export. */
export function importPart(part, alongside = []) {
  return Promise.all([import(`/app/${part.module}`), ...part.modules.map((m) => import(`/app/${m}`)), ...alongside])
    .then(([m]) => m[part.export]);
}
