// The notices that want the player: take my seat back, hand an absent player's seat to the bot (after a
// confirmation), a forced step the server plays by itself soon. Loaded the first time one may be due
// (seats.js's SeatNotices).
import { html, useState } from "../lib.js";
import { post } from "../api.js";
import { t } from "../i18n.js";
import { isTimed, mmss, useCountdown } from "./clock.js";
import { absentLeft } from "./seat_tags.js";
import { Confirm } from "./confirm.js";

// The least a realtime seat taken back from the bot gets (docs/api.md, Seats: Reclaim; the server's
// clock.RECLAIM_MIN_MS): what it had left, but at least this.
const RECLAIM_MIN_MS = 30000;

/** A forced step the server answers by itself soon: say so, so nobody taps for nothing. */
function DefaultsSoon({ ctx }) {
  const d = ctx.defaults;
  const left = useCountdown(() => (d ? Math.max(0, d.ms - (performance.now() - d.at)) : null), !!d, () => false);
  if (!d || !ctx.myMove || left == null) return null;
  return html`<p class="seat-note seat-note-soft" role="status" data-testid="defaults-in">
    ${t("match.seat.defaults_in", { n: Math.ceil(left / 1000) })}</p>`;
}

/** The notices that want the player: seat back, hand an absent seat over, a step played for them. */
export function SeatNotices({ ctx }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  if (!ctx) return null;
  const me = ctx.mySeat;
  /** The server's refusal shows under the notices; a confirmation dialog shows it in place (`raise`). */
  async function call(path, body, raise = false) {
    setBusy(true);
    setError("");
    try { const m = await post(`/api/matches/${ctx.id}/${path}/`, body); if (m && m.seats) ctx.setMatch(m); }
    catch (e) { if (raise) { setBusy(false); throw e; } setError(e.message); }
    setBusy(false);
  }
  const mine = me != null ? ctx.control[me] : null;
  const canHand = ctx.active && me != null && !ctx.resigned(me);
  const absent = canHand ? (ctx.match ? ctx.match.seats.map((x) => x.seat) : []).filter((s) => s !== me && absentLeft(ctx, s) != null) : [];
  const back = reclaimedMs(ctx.clock, me);
  return html`<div class="seat-notes">
    ${ctx.active && mine && mine.reason !== "resigned" && html`<div class="seat-note seat-note-act" role="status" data-testid="reclaim-note">
      <span>${t(mine.reason === "timeout" ? "match.seat.mine_timeout" : "match.seat.mine_takeover")}${
        back != null ? " " + t("match.seat.reclaim_time", { time: mmss(back) }) : ""}</span>
      <button type="button" class="btn btn-primary" data-testid="reclaim" disabled=${busy}
        onClick=${() => call("reclaim")}>${t("match.seat.reclaim")}</button></div>`}
    ${ctx.active && mine && mine.reason === "resigned" && html`<p class="seat-note" role="status">${t("match.seat.mine_resigned")}</p>`}
    <${DefaultsSoon} ctx=${ctx} />
    ${absent.map((s) => html`<${AbsentNote} key=${s} ctx=${ctx} seat=${s} busy=${busy}
      onHand=${() => call("takeover", { seat: s }, true)} />`)}
    ${error && html`<p class="seat-note seat-note-error" role="alert">${error}</p>`}
  </div>`;
}

/** A realtime bank taken back from the bot, as the server gives it back: what it had, at least 30 s; null
 * for other clocks (a turn-based seat gets a fresh move's time). */
function reclaimedMs(r, seat) {
  if (seat == null || !isTimed(r) || r.kind !== "realtime" || !r.remaining_ms) return null;
  return Math.max(r.remaining_ms[seat] ?? 0, RECLAIM_MIN_MS);
}

/** An absent player's seat: the countdown of their grace, then the hand-over, asked once more before it goes
 * (it cannot be undone by anyone but that player). */
function AbsentNote({ ctx, seat, busy, onHand }) {
  const left = useCountdown(() => absentLeft(ctx, seat), true, () => false);
  const [asking, setAsking] = useState(false);
  if (left == null) return null;
  const name = ctx.name(seat);
  return html`<div class="seat-note seat-note-away" data-testid="absent-note" data-seat=${seat}>
    <span>${left > 0 ? t("match.seat.absent_wait", { name, time: mmss(left) }) : t("match.seat.absent_gone", { name })}</span>
    ${left <= 0 && html`<button type="button" class="btn" data-testid="takeover" data-seat=${seat} disabled=${busy}
      onClick=${() => setAsking(true)}>${t("match.seat.takeover")}</button>`}
    ${asking && html`<${Confirm} title=${t("match.seat.takeover_q", { name })} text=${t("match.seat.takeover_text", { name })}
      yes=${t("match.seat.takeover_yes")} no=${t("match.seat.takeover_wait")} onYes=${onHand} onClose=${() => setAsking(false)}
      testid="takeover-dialog" />`}</div>`;
}
