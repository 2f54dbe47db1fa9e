// A timed match's clock faces (seats.js's ClockFace loads this the first time one shows) and time spans in
// words (also the lobby screens', time_control.js).
import { html } from "../lib.js";
import { t } from "../i18n.js";
import { isTimed, readAt, useCountdown } from "./clock.js";

/** A seat's time left at `now` (ms), null when the match has no clock. Stopped seats keep what was sent. */
export function remainingMs(r, seat, now = performance.now()) {
  if (!r || !r.remaining_ms || r.remaining_ms[seat] == null) return null;
  const base = r.remaining_ms[seat];
  return r.running.includes(seat) ? Math.max(0, base - (readAt(r, now) - r.at)) : base;
}

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

/** One seat's clock face: what is left (realtime bank or turn-based deadline), highlighted while it runs. */
export function ClockFace({ r, seat, label }) {
  const running = !!r && r.running.includes(seat);
  const stale = !!r && r.frozen != null; // the connection dropped: the face stops and says it may be out of date
  const realtime = r && r.kind === "realtime";
  const ms = useCountdown(() => remainingMs(r, seat), running && !stale, (v) => realtime && v < 10000);
  if (!isTimed(r) || ms == null) return null;
  const low = running && isLow(r, ms);
  const text = realtime ? formatBank(ms) : running ? t("clock.left", { time: formatSpan(ms) }) : formatSpan(ms);
  const said = label ? t("clock.aria", { name: label, time: realtime ? text : formatSpan(ms) }) : undefined;
  return html`<span class=${"clock" + (running ? " clock-on" : "") + (low ? " clock-low" : "") + (stale ? " clock-stale" : "")} role="timer"
    data-testid="clock" data-seat=${seat} data-ms=${Math.round(ms)} data-stale=${stale ? "yes" : undefined}
    title=${stale ? t("clock.stale") : undefined}
    aria-label=${said && stale ? `${said} (${t("clock.stale")})` : said}>${text}</span>`;
}
