// Modal dialogs of the match screen: the match menu's (menu_dialogs.js) and the seat notices' confirmations
// (seat_notices.js). Native modal <dialog>s keep focus inside while open (the page behind is inert) and Escape
// closes them; focus goes back to what opened them.
import { html, useEffect, useRef, useState } from "../lib.js";
import { t } from "../i18n.js";

/** A modal <dialog> shown while mounted; `onClose` when it closes (Escape, a button, the backdrop). */
export function Modal({ label, onClose, children, testid, className }) {
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

/** "Are you sure?" with the consequences spelled out; the server's refusal is shown in place. `no` names the
 * way back (default: keep playing). */
export function Confirm({ title, text, yes, no, danger, onYes, onClose, testid }) {
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
      <button type="button" class="btn" autofocus data-testid="confirm-no" onClick=${onClose}>${no || t("match.menu.keep_playing")}</button>
      <button type="button" class=${"btn " + (danger ? "btn-danger-solid" : "btn-primary")} data-testid="confirm-yes" disabled=${busy}
        onClick=${go}>${yes}</button>
    </div>
  <//>`;
}
