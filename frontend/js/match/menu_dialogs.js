// The match menu's dialogs (sound and notifications, resign, abort), loaded when the player first opens the
// menu (menu.js holds the button). Native modal <dialog>s keep focus inside while open (the page behind is
// inert) and Escape closes them; focus goes back to what opened them.
import { html, useEffect, useRef, useState } from "../lib.js";
import { post } from "../api.js";
import { t } from "../i18n.js";
import { useSeats } from "./seats.js";
import { notificationsSupported } from "./cues.js";

/** A modal <dialog> shown while mounted; `onClose` when it closes (Escape, a button, the backdrop). */
function Modal({ label, onClose, children, testid, className }) {
  const ref = useRef(null);
  const gone = useRef(false); // closing because we unmount (another dialog follows): not the player's "close"
  useEffect(() => {
    const opener = document.activeElement;
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => { gone.current = true; if (d && d.open) d.close(); if (opener && opener.isConnected) opener.focus(); };
  }, []);
  const close = () => { if (!gone.current) onClose(); };
  return html`<dialog ref=${ref} class=${"mdialog " + (className || "")} aria-label=${label} data-testid=${testid}
    onClose=${close} onCancel=${(e) => { e.preventDefault(); close(); }}
    onClick=${(e) => { if (e.target === ref.current) close(); }}>
    <div class="mdialog-body">${children}</div>
  </dialog>`;
}

/** "Are you sure?" with the consequences spelled out; the server's refusal is shown in place. */
function Confirm({ title, text, yes, danger, onYes, onClose, testid }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  async function go() {
    setBusy(true);
    setError("");
    try { await onYes(); onClose(); } catch (e) { setError(e.message); setBusy(false); }
  }
  return html`<${Modal} label=${title} onClose=${onClose} testid=${testid}>
    <h2>${title}</h2><p>${text}</p>
    ${error && html`<p class="seat-note seat-note-error" role="alert" data-testid="menu-error">${error}</p>`}
    <div class="actions">
      <button type="button" class="btn" autofocus onClick=${onClose}>${t("match.menu.keep_playing")}</button>
      <button type="button" class=${"btn " + (danger ? "btn-danger-solid" : "btn-primary")} data-testid="confirm-yes" disabled=${busy}
        onClick=${go}>${yes}</button>
    </div>
  <//>`;
}

function Toggle({ on, label, hint, onChange, testid }) {
  return html`<label class="mtoggle"><span><strong>${label}</strong>${hint && html`<small class="hint">${hint}</small>`}</span>
    <input type="checkbox" role="switch" checked=${on} data-testid=${testid} onChange=${(e) => onChange(e.target.checked)} /></label>`;
}

/** What the ⋯ button opens: `open` is "menu", "resign" or "abort"; `cues` is useCueSettings()'s answer. */
export function MenuDialogs({ open, setOpen, cues }) {
  const ctx = useSeats();
  const [note, setNote] = useState("");
  const canResign = ctx.active && !ctx.resigned(ctx.mySeat);
  const act = (path) => async () => {
    const m = await post(`/api/matches/${ctx.id}/${path}/`);
    if (m && m.seats) ctx.setMatch(m);
  };
  function sound(on) {
    cues.keep("sound", on);
    if (on) import("./cue_play.js").then((m) => m.beep(), () => {});
  }
  /** Opting in asks the browser's permission now (a tap is what browsers require); a refusal leaves it off. */
  async function notify(on) {
    let ok = !on || Notification.permission === "granted";
    if (!ok) {
      try { ok = (await Notification.requestPermission()) === "granted"; } catch { ok = false; }
    }
    cues.keep("notify", on && ok);
    setNote(ok ? "" : t("match.menu.notify_denied"));
  }
  return html`${open === "menu" && html`<${Modal} label=${t("match.menu.title")} onClose=${() => setOpen(null)} testid="menu" className="mdialog-sheet">
      <h2>${t("match.menu.title")}</h2>
      <${Toggle} on=${cues.sound} label=${t("match.menu.sound")} hint=${t("match.menu.sound_hint")} onChange=${sound} testid="sound-toggle" />
      ${notificationsSupported() && html`<${Toggle} on=${cues.notify} label=${t("match.menu.notify")} hint=${t("match.menu.notify_hint")}
        onChange=${notify} testid="notify-toggle" />`}
      ${note && html`<p class="hint" role="status">${note}</p>`}
      ${(canResign || ctx.abortable) && html`<div class="mmenu-danger">
        ${ctx.abortable && html`<button type="button" class="btn btn-block" data-testid="abort" onClick=${() => setOpen("abort")}>${t("match.menu.abort")}</button>`}
        ${canResign && html`<button type="button" class="btn btn-block btn-danger" data-testid="resign" onClick=${() => setOpen("resign")}>${t("match.menu.resign")}</button>`}
      </div>`}
      <button type="button" class="btn btn-ghost btn-block" onClick=${() => setOpen(null)}>${t("match.menu.close")}</button>
    <//>`}
    ${open === "resign" && html`<${Confirm} title=${t("match.menu.resign_q")} text=${t("match.menu.resign_text")} yes=${t("match.menu.resign_yes")}
      danger onYes=${act("resign")} onClose=${() => setOpen(null)} testid="resign-dialog" />`}
    ${open === "abort" && html`<${Confirm} title=${t("match.menu.abort_q")} text=${t("match.menu.abort_text")} yes=${t("match.menu.abort_yes")}
      danger onYes=${act("abort")} onClose=${() => setOpen(null)} testid="abort-dialog" />`}`;
}
