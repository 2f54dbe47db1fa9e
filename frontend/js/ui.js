// Small shared pieces: page frame, notices, the connection banner, names.
import { html, useEffect, useState } from "./lib.js";

// The site hosts two games: the tab names the screen first, then the site (index.html's <title> until the app runs).
export const SITE = "Condottiere & God's Playground";

/** `tab` is the whole tab title when the screen's heading does not say it well (a match names its game instead of the site). */
export function Page({ title, tab, actions, children, wide }) {
  const tabTitle = tab || (title ? `${title} · ${SITE}` : SITE);
  useEffect(() => { document.title = tabTitle; }, [tabTitle]);
  return html`<main id="main" class=${"page" + (wide ? " page-wide" : "")} tabindex="-1">
    ${title && html`<div class="page-head"><h1>${title}</h1>${actions && html`<div class="page-actions">${actions}</div>`}</div>`}
    ${children}
  </main>`;
}

export function Notice({ kind = "error", children, onClose }) {
  if (!children) return null;
  return html`<div class=${"notice notice-" + kind} role=${kind === "error" ? "alert" : "status"}>
    <span>${children}</span>
    ${onClose && html`<button class="btn-icon" type="button" aria-label="Dismiss" onClick=${onClose}>×</button>`}
  </div>`;
}

export function Spinner({ label = "Loading…" }) {
  return html`<div class="spinner" role="status"><span class="spinner-dot" aria-hidden="true"></span>${label}</div>`;
}

/** The socket state as people understand it; hidden while connected. */
export function ConnectionBanner({ status }) {
  if (status === "open") return null;
  const text = {
    connecting: "Connecting…",
    reconnecting: "Connection lost — reconnecting…",
    closed: "Disconnected. Reload the page to try again.",
  }[status] || "Connecting…";
  return html`<div class=${"conn conn-" + status} role="status" aria-live="polite" data-testid="connection">
    <span class="spinner-dot" aria-hidden="true"></span>${text}</div>`;
}

export function Empty({ children }) {
  return html`<p class="empty">${children}</p>`;
}

export function seatName(match, seat) {
  if (!match || seat == null) return `Seat ${seat + 1}`;
  const s = (match.seats || []).find((x) => x.seat === seat);
  if (!s) return `Seat ${seat + 1}`;
  if (s.user) return s.user.username;
  return s.bot ? `Bot ${seat + 1} (${s.bot})` : `Seat ${seat + 1}`;
}

export const SEAT_COLOURS = ["#c0392b", "#2e6fd8", "#2f9e55", "#d89a1c", "#8e44ad", "#148f8f"];
export const SEAT_COLOUR_NAMES = ["red", "blue", "green", "gold", "purple", "teal"];

export function SeatDot({ seat }) {
  return html`<span class="seat-dot" style=${{ background: SEAT_COLOURS[seat % 6] }} aria-hidden="true"></span>`;
}

export function ago(iso) {
  if (!iso) return "";
  const s = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

/** Re-render every `ms` (for relative times and polling screens). */
export function useTick(ms) {
  const [, set] = useState(0);
  useEffect(() => { const t = setInterval(() => set((n) => n + 1), ms); return () => clearInterval(t); }, [ms]);
}

export function gameName(games, id) {
  const g = (games || []).find((x) => x.id === id);
  return g ? g.name : ({ condottiere: "Condottiere", gods_playground: "God's Playground" }[id] || id);
}
