// Server clocks counted down on this page (docs/api.md, Time controls and clocks).
// A `state` frame's durations are relative to the moment it was built, so the page notes
// performance.now() on receipt and counts from there; every new frame replaces the reckoning.
import { html, useEffect, useState } from "../lib.js";
import { t } from "../i18n.js";

/** A frame's clock with the moment it arrived (null stays null). */
export function reckon(clock, at = performance.now()) {
  return clock ? { ...clock, at } : null;
}

/** A seat's time left at `now` (ms), null when the match has no clock. Stopped seats keep what was sent. */
export function remainingMs(r, seat, now = performance.now()) {
  if (!r || !r.remaining_ms || r.remaining_ms[seat] == null) return null;
  const base = r.remaining_ms[seat];
  return r.running.includes(seat) ? Math.max(0, base - (now - r.at)) : base;
}

/** How long a running seat has been on its turn at `now` (ms), null for a seat not asked. */
export function turnMs(r, seat, now = performance.now()) {
  if (!r || !r.turn_ms || r.turn_ms[seat] == null) return null;
  return r.turn_ms[seat] + (now - r.at);
}

export const isTimed = (r) => !!r && (r.kind === "realtime" || r.kind === "turn_based");

/** The last stretch, shown red: 10 s of a realtime bank; a tenth of a turn-based move (10 s to an hour). */
export function isLow(r, ms) {
  if (ms == null || !r) return false;
  if (r.kind === "realtime") return ms <= 10000;
  return ms <= Math.max(10000, Math.min(3600000, (r.per_move_ms || 0) / 10));
}

const pad = (n) => String(n).padStart(2, "0");

/** A realtime bank as a chess clock reads: 1:02:03, 4:05, and tenths in the last 10 s (0:09.4). */
export function formatBank(ms) {
  if (ms < 10000) return `0:0${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)}`;
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** A longer span in words, two units at most: "1 d 4 h", "3 h 5 min", "12 min", "45 s". */
export function formatSpan(ms) {
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (d) return h ? `${t("clock.d", { n: d })} ${t("clock.h", { n: h })}` : t("clock.d", { n: d });
  if (h) return m ? `${t("clock.h", { n: h })} ${t("clock.min", { n: m })}` : t("clock.h", { n: h });
  if (m) return t("clock.min", { n: m });
  return t("clock.s", { n: s });
}

/** When the shown text next changes (ms from now): tenths, seconds or minutes, at most a second away. */
function nextChange(ms, fine) {
  const step = fine ? 100 : 1000;
  return Math.min(1000, (ms % step) + 1);
}

/** Re-renders its user whenever `valueAt()` would read differently; a timeout to the next change, never an interval. */
export function useCountdown(valueAt, running, fine) {
  const [, setTick] = useState(0);
  const ms = valueAt();
  useEffect(() => {
    if (!running || ms == null) return undefined;
    const id = setTimeout(() => setTick((n) => n + 1), nextChange(ms, fine(ms)));
    return () => clearTimeout(id);
  });
  return ms;
}

/** One seat's clock face: what is left (realtime bank or turn-based deadline), highlighted while it runs. */
export function ClockFace({ r, seat, label }) {
  const running = !!r && r.running.includes(seat);
  const realtime = r && r.kind === "realtime";
  const ms = useCountdown(() => remainingMs(r, seat), running, (v) => realtime && v < 10000);
  if (!isTimed(r) || ms == null) return null;
  const low = running && isLow(r, ms);
  const text = realtime ? formatBank(ms) : running ? t("clock.left", { time: formatSpan(ms) }) : formatSpan(ms);
  return html`<span class=${"clock" + (running ? " clock-on" : "") + (low ? " clock-low" : "")} role="timer"
    data-testid="clock" data-seat=${seat} data-ms=${Math.round(ms)}
    aria-label=${label ? t("clock.aria", { name: label, time: realtime ? text : formatSpan(ms) }) : undefined}>${text}</span>`;
}
