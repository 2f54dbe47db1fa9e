// The modal sheet itself (sheet.js's Sheet loads it when a sheet first opens: the whole log, a second
// question): a native <dialog>, so the browser traps focus in it and gives it back on close.
import { html, useEffect, useRef } from "../lib.js";

/** A bottom sheet on phones, a dialog on desktop. Open while mounted; Escape or a tap outside calls onCancel. */
export function Sheet({ title, titleId, onCancel, children, wide, testid }) {
  const ref = useRef(null);
  useEffect(() => {
    const d = ref.current;
    const before = document.activeElement;
    if (d && !d.open) d.showModal();
    // showModal focuses the first focusable element; a sheet whose first control is its own close button
    // (the log) keeps that, any other gets its first answer.
    const first = d && d.querySelector("[data-autofocus]");
    if (first) first.focus();
    return () => {
      if (d && d.open) d.close();
      // The browser restores focus on close; an unmount without close (a new position arrived) does it here.
      if (before && before.isConnected && document.activeElement === document.body) before.focus({ preventScroll: true });
    };
  }, []);
  const cancel = (e) => { e.preventDefault(); onCancel(); };
  // A click on the backdrop lands on the <dialog> itself (its content box is the sheet).
  const outside = (e) => { if (e.target === ref.current) onCancel(); };
  // The modal dialog keeps the page out of reach; Tab also wraps inside it rather than leaving for the browser's bar.
  const wrap = (e) => {
    if (e.key !== "Tab") return;
    const all = [...ref.current.querySelectorAll("button:not([disabled]), input:not([disabled]), [tabindex='0']")];
    if (!all.length) return;
    const [first, last] = [all[0], all[all.length - 1]];
    if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
    else if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
  };
  return html`<dialog ref=${ref} class=${"sheet" + (wide ? " sheet-wide" : "")} aria-labelledby=${titleId}
      onCancel=${cancel} onClick=${outside} onKeyDown=${wrap} data-testid=${testid}>
    <div class="sheet-body">
      <h2 id=${titleId}>${title}</h2>
      ${children}
    </div>
  </dialog>`;
}
