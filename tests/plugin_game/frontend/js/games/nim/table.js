// Nim's table: the pile and a button per legal take.
import { html } from "../../lib.js";
import { t } from "../../i18n.js";

export function NimTable({ view, legal, send, pending, version }) {
  return html`<section class="nim" data-testid="table" data-version=${version} data-my-turn=${legal.length ? "yes" : "no"}>
    <p data-testid="nim-pile">${t("nim.pile", { count: view.pile })}</p>
    ${legal.map((a) => html`<button type="button" class="btn" disabled=${pending} onClick=${() => send(a)}>${t("nim.take", { count: a.take })}</button>`)}
  </section>`;
}
