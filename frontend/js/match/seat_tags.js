// The seats' tags: who plays a seat for its player (the bot: timeout, takeover, resigned) and how long an absent
// player has left. Loaded by seats.js, with the "match_menu" words, once a seat is in the bot's hands or a human
// seat has no connection.
import { html } from "../lib.js";
import { t } from "../i18n.js";
import { isTimed, mmss, turnMs, useCountdown } from "./clock.js";

/** How long until an absent seat may be handed over (ms, <= 0: now), null when it is not absent. */
export function absentLeft(ctx, seat, now = performance.now()) {
  const c = ctx.clock;
  if (!ctx.active || !c || isTimed(c) || !ctx.connected || ctx.connected.includes(seat)) return null;
  if (!ctx.human(seat) || ctx.control[seat] || !c.running.includes(seat)) return null;
  const onTurn = turnMs(c, seat, now);
  if (onTurn == null) return null;
  const gone = ctx.awayAt[seat] != null ? Math.min(onTurn, now - ctx.awayAt[seat]) : onTurn;
  return ctx.grace - gone;
}

function ControlTag({ ctx, seat }) {
  const c = ctx.control[seat];
  if (!c) return null;
  const why = { timeout: "match.seat.why_timeout", resigned: "match.seat.why_resigned", takeover: "match.seat.why_takeover" }[c.reason] || "match.seat.why_other";
  return html`<span class=${"tag tag-bot" + (c.reason === "resigned" ? " tag-resigned" : "")} data-testid="seat-control"
    data-reason=${c.reason} title=${t(why)}>${t(c.reason === "resigned" ? "match.seat.resigned" : "match.seat.bot_plays")}</span>`;
}

/** A player of an active match with no connection to it (as far as this page knows; its own connection up). */
const away = (ctx, seat) => ctx.active && ctx.connected != null && ctx.human(seat) && !ctx.control[seat]
  && !ctx.connected.includes(seat);

/** "away 0:42" while an absent player's grace runs (untimed, on their turn), "away" otherwise: every match,
 * timed ones too, shows who has left the table. */
function AwayTag({ ctx, seat }) {
  const left = useCountdown(() => absentLeft(ctx, seat), true, () => false);
  if (left == null && !away(ctx, seat)) return null;
  const text = left == null || left <= 0 ? t("match.seat.away") : t("match.seat.away_for", { time: mmss(left) });
  return html`<span class="tag tag-away" data-testid="away" data-seat=${seat}
    title=${t(left == null ? "match.seat.away_now" : "match.seat.away_title")}>${text}</span>`;
}

/** Both tags of a seat. */
export const SeatTags = (props) => html`<${ControlTag} ...${props} /><${AwayTag} ...${props} />`;
