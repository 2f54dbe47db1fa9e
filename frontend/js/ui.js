// Small shared pieces: page frame, notices, the connection banner, names.
import { html, useLayoutEffect } from "./lib.js";
import { has, t } from "./i18n.js";
import { GAMES_WITH_RULES, gameInfo, inLanguage } from "./games/registry.js";

/** The tab's title: a screen's name, then the site's (index.html's <title> until the app runs). */
export const siteTitle = (screen) => (screen ? `${screen} · ${t("site.name")}` : t("site.name"));

/** `tab` is the whole tab title when the screen's heading does not say it well (a match names its game instead of the site). */
export function Page({ title, tab, actions, children, wide }) {
  const tabTitle = tab || siteTitle(title);
  // Before the paint, with the rest of the frame: a match's "Your move" goes from the tab as its buttons do.
  useLayoutEffect(() => { document.title = tabTitle; }, [tabTitle]);
  return html`<main id="main" class=${"page" + (wide ? " page-wide" : "")} tabindex="-1">
    ${title && html`<div class="page-head"><h1>${title}</h1>${actions && html`<div class="page-actions">${actions}</div>`}</div>`}
    ${children}
  </main>`;
}

/** The app's own "not found" page: an unknown address, or a match or lobby that does not exist. */
export function NotFound({ text }) {
  return html`<${Page} title=${t("notfound.title")}>
    <section class="card notfound" data-testid="not-found">
      <p>${text || t("notfound.text")}</p>
      <a class="btn btn-primary" href="/">${t("notfound.home")}</a>
    </section>
  <//>`;
}

export function Notice({ kind = "error", children, onClose }) {
  if (!children) return null;
  return html`<div class=${"notice notice-" + kind} role=${kind === "error" ? "alert" : "status"}>
    <span>${children}</span>
    ${onClose && html`<button class="btn-icon" type="button" aria-label=${t("ui.dismiss")} onClick=${onClose}>×</button>`}
  </div>`;
}

export function Spinner({ label }) {
  return html`<div class="spinner" role="status"><span class="spinner-dot" aria-hidden="true"></span>${label || t("ui.loading")}</div>`;
}

const CONN_WORDS = { reconnecting: "conn.reconnecting", offline: "conn.offline", closed: "conn.closed" };

/** The socket state as people understand it; hidden while connected. A lost connection shows at once (live.js
 * tells it the moment the socket closes or the browser goes offline), in a bar that stays in sight. */
export function ConnectionBanner({ status }) {
  if (status === "open") return null;
  const lost = status === "reconnecting" || status === "offline";
  return html`<div class=${"conn conn-" + status + (lost ? " conn-lost" : "")} role=${status === "closed" ? "alert" : "status"}
    aria-live="polite" data-testid="connection" data-status=${status}>
    <span class="spinner-dot" aria-hidden="true"></span>${t(CONN_WORDS[status] || "conn.connecting")}</div>`;
}

export function seatName(match, seat) {
  const s = match && seat != null ? (match.seats || []).find((x) => x.seat === seat) : null;
  if (s && s.user) return s.user.username;
  return s && s.bot ? t("seat.bot", { n: seat + 1, bot: botName(s.bot) }) : t("seat.n", { n: seat + 1 });
}

/** A name for tight spots (a map label): a bot without its kind ("Bot 2"); players keep their whole name. */
export function seatShort(match, seat) {
  const s = match && seat != null ? (match.seats || []).find((x) => x.seat === seat) : null;
  return s && !s.user && s.bot ? t("seat.bot_short", { n: seat + 1 }) : seatName(match, seat);
}

/** A bot's kind ("random", "heuristic") in words. */
export const botName = (kind) => (has(`bot.${kind}`) ? t(`bot.${kind}`) : kind);

export const SEAT_COLOURS = ["#c0392b", "#2e6fd8", "#2f9e55", "#d89a1c", "#8e44ad", "#148f8f"];

/** Whether a seated player's page is connected, on every game's table. */
export function Presence({ on }) {
  const label = t(on ? "table.online" : "table.offline");
  return html`<span class=${"presence" + (on ? " on" : " off")} role="img" title=${label} aria-label=${label}></span>`;
}

export function SeatDot({ seat }) {
  return html`<span class="seat-dot" style=${{ background: SEAT_COLOURS[seat % 6] }} aria-hidden="true"></span>`;
}

/** A game's name: the app's own words for the games it knows, else its manifest's, else what the server calls it. */
export function gameName(games, id) {
  if (has(`game.${id}`)) return t(`game.${id}`);
  const g = gameInfo(id);
  return g ? inLanguage(g.name) : ((games || []).find((x) => x.id === id) || { name: id }).name;
}

export { GAMES_WITH_RULES };
