// Time controls in words, and the picker of the new-lobby form (docs/api.md, Time controls and clocks).
import { html } from "../lib.js";
import { t } from "../i18n.js";
import { formatSpan } from "./clock.js";

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

export const PRESETS = [
  { id: "none", tc: { kind: "none" } },
  { id: "blitz", tc: { kind: "realtime", bank_s: 180, increment_s: 10 } },
  { id: "rapid", tc: { kind: "realtime", bank_s: 600, increment_s: 20 } },
  { id: "day", tc: { kind: "turn_based", per_move_s: 86400 } },
  { id: "custom", tc: null },
];

/** The custom fields in the units people think in (minutes, seconds, hours), as the server's seconds. */
export function customControl(kind, f) {
  const whole = (v) => (v === "" || v == null ? v : Math.round(Number(v)));
  if (kind === "realtime") return { kind, bank_s: whole(f.bank_min * 60), increment_s: whole(f.inc_s) };
  return { kind, per_move_s: whole(f.move_h * 3600) };
}

/** Our own words for a custom value out of the server's bounds (clock.py BOUNDS); the server checks again. */
export function customErrors(tc) {
  const out = {};
  const bad = (v, lo, hi) => typeof v !== "number" || !Number.isFinite(v) || v < lo || v > hi;
  if (tc.kind === "realtime") {
    if (bad(tc.bank_s, 60, 10800)) out.bank_s = t("clock.err_bank");
    if (bad(tc.increment_s, 0, 600)) out.increment_s = t("clock.err_inc");
  } else if (tc.kind === "turn_based" && bad(tc.per_move_s, 1800, 1209600)) out.per_move_s = t("clock.err_move");
  return out;
}

/** The server's `fields.time_control` ({field: [sentence]} or [sentence]) as {field: sentence}. */
export function serverErrors(fields) {
  const tc = fields && fields.time_control;
  if (!tc) return null;
  if (Array.isArray(tc) || typeof tc !== "object") return { kind: [].concat(tc).join(" ") };
  return Object.fromEntries(Object.entries(tc).map(([k, v]) => [k, [].concat(v).join(" ")]));
}

function NumberField({ id, label, value, onInput, error, step }) {
  return html`<div class="field"><label for=${id}>${label}</label>
    <input id=${id} type="number" inputmode="decimal" step=${step || 1} value=${value} data-testid=${id}
      aria-invalid=${error ? "true" : undefined} aria-describedby=${error ? id + "-err" : undefined}
      onInput=${(e) => onInput(e.target.value === "" ? "" : Number(e.target.value))} />
    ${error && html`<small id=${id + "-err"} class="field-error" role="alert">${error}</small>`}</div>`;
}

/** Presets as big radio tiles; "custom" opens realtime/turn-based fields. `errors` come from either check. */
export function TimeControlPicker({ choice, setChoice, custom, setCustom, errors }) {
  const e = errors || {};
  return html`<fieldset class="tc-pick" data-testid="time-controls"><legend>${t("clock.tc_legend")}</legend>
    <div class="tc-options">
      ${PRESETS.map((p) => html`<label class=${"tc-choice" + (choice === p.id ? " on" : "")} data-tc=${p.id}>
        <input type="radio" name="tc" value=${p.id} checked=${choice === p.id} onChange=${() => setChoice(p.id)} />
        <span class="tc-name">${t(`clock.preset_${p.id}`)}</span>
        <span class="muted">${p.tc ? timeControlText(p.tc) : t("clock.preset_custom_hint")}</span>
      </label>`)}
    </div>
    ${choice === "custom" && html`<div class="tc-custom">
      <div class="field"><label for="tc-kind">${t("clock.kind")}</label>
        <select id="tc-kind" value=${custom.kind} onChange=${(ev) => setCustom({ ...custom, kind: ev.target.value })}>
          <option value="realtime">${t("clock.kind_realtime")}</option>
          <option value="turn_based">${t("clock.kind_turn")}</option>
        </select>${e.kind && html`<small class="field-error" role="alert">${e.kind}</small>`}</div>
      ${custom.kind === "realtime" ? html`
        <${NumberField} id="tc-bank" label=${t("clock.bank_min")} value=${custom.bank_min} error=${e.bank_s}
          onInput=${(v) => setCustom({ ...custom, bank_min: v })} />
        <${NumberField} id="tc-inc" label=${t("clock.inc_s")} value=${custom.inc_s} error=${e.increment_s}
          onInput=${(v) => setCustom({ ...custom, inc_s: v })} />`
        : html`<${NumberField} id="tc-move" label=${t("clock.move_h")} value=${custom.move_h} error=${e.per_move_s} step="0.5"
          onInput=${(v) => setCustom({ ...custom, move_h: v })} />`}
    </div>`}
    ${choice !== "custom" && e.kind && html`<small class="field-error" role="alert">${e.kind}</small>`}
  </fieldset>`;
}
