// Fallback table for a game without its own screen: the view and the legal actions as buttons.
import { html } from "../lib.js";
import { Notice } from "../ui.js";
import { describeAction } from "./actions.js";

export function GenericTable({ view, legal, send, pending, rejection, clearRejection, log, version }) {
  return html`<div class="generic-table" data-version=${version}>
    <${Notice} onClose=${clearRejection}>${rejection}<//>
    <section class="panel"><h2>Your moves</h2>
      ${legal.length ? html`<div class="chips">${legal.map((a) => html`<button type="button" class="btn" disabled=${pending}
          onClick=${() => send(a)}>${describeAction(a)}</button>`)}</div>` : html`<p class="muted">Nothing to do right now.</p>`}
    </section>
    <section class="panel"><h2>Table</h2><pre class="view-dump">${JSON.stringify(view, null, 2)}</pre></section>
    <section class="panel"><h2>Log</h2><ol class="log">${log.map((e) => html`<li>${e.text}</li>`)}</ol></section>
  </div>`;
}
