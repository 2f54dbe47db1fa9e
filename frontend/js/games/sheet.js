// What every table shares around its pieces: a modal sheet, the last event (the
// whole log one tap away), keyboard focus kept on the controls that act next.
import { html, useEffect, useLayoutEffect, useRef, useState } from "../lib.js";
import { t } from "../i18n.js";
import { lazyComponent, loadCss } from "../lazy.js";

/** The modal sheet (sheet_dialog.js and sheet.css, loaded when one first opens). */
export const Sheet = lazyComponent(() => Promise.all([import("./sheet_dialog.js"), loadCss("/app/sheet.css")]).then(([m]) => m.Sheet), null);

/** The newest line of the log (blank while `line` is null), one tap from the whole log in a sheet. */
export function LastEvent({ log, line, children }) {
  const [open, setOpen] = useState(false);
  const last = log.length ? log[log.length - 1] : null;
  return html`<div class="last-event">
    <button type="button" class="last-event-btn" data-testid="last-event" aria-haspopup="dialog" onClick=${() => setOpen(true)}>
      <span class="last-event-text">${!last ? t("table.log_empty") : line ? line(last) : ""}</span>
      <span class="last-event-more"><span aria-hidden="true">${t("table.log")} ›</span><span class="visually-hidden">${t("table.open_log")}</span></span>
    </button>
    ${open && html`<${Sheet} title=${t("table.log")} titleId="log-sheet-title" wide testid="log-sheet" onCancel=${() => setOpen(false)}>
      ${children}
      <button type="button" class="btn btn-block" data-autofocus onClick=${() => setOpen(false)}>${t("table.close")}</button>
    <//>`}
  </div>`;
}

const CONTROL = "button:not([disabled]), [tabindex='0'], input:not([disabled])";

/** After a move, when focus was in `scope` (the table) and its control went away or was disabled, the dock `ref`'s
 * first control takes it (or the dock itself), not the page top. */
export function useFocusInside(ref, key, scope = ref) {
  const inside = useRef(false);
  useEffect(() => {
    const el = scope.current;
    if (!el) return undefined;
    const on = () => { inside.current = true; };
    // Focus moving elsewhere on purpose has a target; a control that disappears or is disabled has none.
    const off = (e) => { if (e.relatedTarget && !el.contains(e.relatedTarget)) inside.current = false; };
    el.addEventListener("focusin", on);
    el.addEventListener("focusout", off);
    return () => { el.removeEventListener("focusin", on); el.removeEventListener("focusout", off); };
  }, []);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !inside.current) return;
    const a = document.activeElement;
    // Still on a live control, or moved away on purpose: leave it.
    if (a && a !== document.body && a !== el && a.isConnected && !a.disabled && a.tabIndex >= 0) return;
    // While nothing there can act (the others' turn) the dock itself holds focus, not the page top.
    focusMoves(el, { preventScroll: true });
  }, [key]);
}

/** Focus on the first control of a table's dock that can act (or the dock itself); false without a dock. */
export function focusMoves(dock = document.querySelector("[data-testid=dock]"), options) {
  if (!dock) return false;
  // A card that cannot be played now is a button too (aria-disabled, so that it explains itself): not a move.
  const all = [...dock.querySelectorAll(CONTROL)].filter((c) => c.getAttribute("aria-disabled") !== "true");
  // In a row with one Tab stop (roving.js) the item Tab would reach, not the row's first.
  (all.find((c) => c.tabIndex >= 0) || all[0] || dock).focus(options);
  return true;
}
