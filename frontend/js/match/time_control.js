// Time controls in words, for the lobby list and room (docs/api.md, Time controls and clocks);
// the picker is the new-lobby screen's (screens/create_lobby.js).
import { html } from "../lib.js";
import { t } from "../i18n.js";
import { formatSpan } from "./clock_face.js";

/** "3 min + 10 s", "1 d per move", "Friendly (no clock)". */
export function timeControlText(tc) {
  if (!tc || tc.kind === "none") return t("clock.tc_none");
  if (tc.kind === "realtime") {
    return tc.increment_s ? t("clock.tc_realtime", { bank: formatSpan(tc.bank_s * 1000), inc: formatSpan(tc.increment_s * 1000) })
      : formatSpan(tc.bank_s * 1000);
  }
  if (tc.kind === "turn_based") {
    const days = tc.per_move_s % 86400 === 0 ? tc.per_move_s / 86400 : 0;
    return t("clock.tc_turn", { time: days ? t("clock.days", { count: days }) : formatSpan(tc.per_move_s * 1000) });
  }
  return tc.kind;
}

/** A small clock drawn in SVG (an emoji clock is missing from some systems' fonts). */
export const ClockIcon = () => html`<svg class="ico-clock" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
  <circle cx="8" cy="9" r="6" fill="none" stroke="currentColor" stroke-width="1.6" /><path d="M8 5.5V9l2.4 1.6M6 1.5h4" fill="none"
  stroke="currentColor" stroke-width="1.6" stroke-linecap="round" /></svg>`;

/** A short tag for lists: the clock glyph and the control ("⏱ 3 min + 10 s"), or nothing for friendly games. */
export function TimeControlTag({ tc }) {
  if (!tc || tc.kind === "none") return null;
  return html`<span class="tag tag-clock" data-testid="time-control" title=${t("clock.tc_title")}><${ClockIcon} /> ${timeControlText(tc)}</span>`;
}
