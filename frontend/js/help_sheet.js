// The help sheet itself (help.js opens it): loaded, with help.css, the first time a player asks what
// something is, so a table does not carry it.
import { html, render } from "./lib.js";
import { t } from "./i18n.js";

let dialog = null;

function ensureDialog() {
  if (dialog && dialog.isConnected) return dialog;
  dialog = document.createElement("dialog");
  dialog.className = "help-sheet";
  dialog.setAttribute("aria-labelledby", "help-title");
  dialog.dataset.testid = "help";
  // A tap on the backdrop (the dialog element itself, outside its content) closes it.
  dialog.addEventListener("click", (e) => { if (e.target === dialog || (e.target.closest && e.target.closest("a[href]"))) dialog.close(); });
  document.body.appendChild(dialog);
  return dialog;
}

function Sheet({ info }) {
  const paras = Array.isArray(info.text) ? info.text : [info.text];
  return html`<div class="help-body">
    <div class="help-head">
      ${info.picture && html`<div class="help-picture" aria-hidden="true">${info.picture}</div>`}
      <h2 id="help-title">${info.title}</h2>
    </div>
    ${paras.filter(Boolean).map((p) => html`<p data-testid="help-text">${p}</p>`)}
    <div class="help-actions">
      ${(info.more || []).map(([href, label]) => html`<a class="btn btn-small" href=${href}>${label}</a>`)}
      <button type="button" class="btn btn-primary btn-small" data-testid="help-close" onClick=${() => dialog.close()}>${t("help.close")}</button>
    </div>
  </div>`;
}

/** Shows `content` ({title, text, picture, more}) in the sheet, a native modal <dialog>, with focus on its close button. */
export function openSheet(content) {
  const d = ensureDialog();
  render(html`<${Sheet} info=${content} />`, d);
  if (!d.open) d.showModal();
  const close = d.querySelector("[data-testid=help-close]");
  if (close) close.focus();
}
