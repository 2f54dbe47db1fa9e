// What the rules pages (e.g. rules_condottiere.js) share: loading their words and styles,
// and the frame around their sections (title, pitch, contents, the way to a table).
import { html, useEffect, useState } from "../lib.js";
import { loadWords, t } from "../i18n.js";
import { loadCss } from "../lazy.js";
import { GAMES_WITH_RULES, Notice, Page, Spinner, gameName } from "../ui.js";

/** Text whose paragraphs are separated by blank lines in the catalogue. */
export function Paragraphs({ text }) {
  return html`<div class="rules-text">${String(text).split(/\n\s*\n/).map((p) => html`<p>${p}</p>`)}</div>`;
}

/** Loads a rules page's words (its game's and its rules') and styles (its game's and rules.css); until then,
 * `waiting` is what to show instead (a spinner, or what went wrong). Scrolls to the address's #section once in. */
export function useRulesPage(game, css) {
  const [state, setState] = useState({ ready: false, error: "" });
  useEffect(() => {
    Promise.all([loadWords(game), loadWords(`rules_${game}`), loadCss(css), loadCss("/app/rules.css")])
      .then(() => setState({ ready: true, error: "" }), (e) => setState({ ready: false, error: e.message || String(e) }));
  }, []);
  useHashScroll(state.ready);
  if (state.ready) return null;
  return html`<${Page}>${state.error ? html`<${Notice}>${state.error}<//>` : html`<${Spinner} />`}<//>`;
}

/** A game's rules page: title, pitch, facts (players, length), contents, the sections, the way to a table. */
export function RulesFrame({ game, title, pitch, facts, toc, children }) {
  const other = GAMES_WITH_RULES.find((g) => g !== game);
  return html`<${Page} title=${title} wide>
    <div class="rules" data-testid="rules" data-game=${game}>
      <p class="rules-pitch">${pitch}</p>
      <p class="rules-facts muted">${facts}</p>
      <nav class="rules-toc" aria-label=${t("rules.contents")}><h2>${t("rules.contents")}</h2>
        <ol>${toc.map(([id, label]) => html`<li><a href=${"#" + id}>${label}</a></li>`)}</ol></nav>
      ${children}
      <div class="actions rules-next">
        <a class="btn btn-primary" href="/lobbies/new">${t("rules.play")}</a>
        ${other && html`<a class="btn" href=${"/rules/" + other}>${t("rules.other", { game: gameName(null, other) })}</a>`}
      </div>
    </div>
  <//>`;
}

/** Scrolls to the address's #fragment once `ready` (a screen whose content arrives after the route, e.g. the rules). */
export function useHashScroll(ready) {
  useEffect(() => {
    if (!ready || !location.hash) return;
    const el = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (el) el.scrollIntoView();
  }, [ready]);
}
