// The second question of a decision (which of several actions under one label; a set of provinces for the
// Jesuit schools) in a sheet. Loaded when a move first asks one (table.js); its words are the
// "gods_playground_decide" part, in since the decision that asks came with them.
import { html, useState } from "../../lib.js";
import { t } from "../../i18n.js";
import { provinceName } from "./layout.js";
import { Sheet } from "../sheet.js";

/** A bottom sheet (dialog on desktop) asking the second half of a decision. */
export function Chooser({ title, options, set, onPick, onCancel }) {
  const [picked, setPicked] = useState([]);
  let body;
  if (set) {
    // A set of provinces (Jesuit schools): the confirm button is live only for a set the server offers.
    const items = [...new Set(options.flatMap((o) => o.action.provinces))];
    const key = (l) => [...l].sort().join();
    const match = options.find((o) => key(o.action.provinces) === key(picked));
    body = html`<fieldset class="gp-set"><legend>${t("gp.set_legend")}</legend>
        ${items.map((p, i) => html`<label class="gp-check"><input type="checkbox" data-testid="set-item" data-autofocus=${i === 0 ? "" : undefined} checked=${picked.includes(p)}
          onChange=${() => setPicked(picked.includes(p) ? picked.filter((x) => x !== p) : picked.concat(p))} />${provinceName(p)}</label>`)}
      </fieldset>
      <button type="button" class="btn btn-primary btn-block" data-testid="set-confirm" disabled=${!match}
        onClick=${() => match && onPick(match.action)}>${picked.length ? t("gp.found_schools", { count: picked.length }) : t("gp.choose_provinces")}</button>`;
  } else {
    body = html`<div class="chips gp-choices">${options.map((o, i) => html`<button type="button" class="btn"
        data-testid="choice" data-autofocus=${i === 0 ? "" : undefined} onClick=${() => onPick(o.action)}>${o.label}</button>`)}</div>`;
  }
  return html`<${Sheet} title=${title} titleId="gp-chooser-title" onCancel=${onCancel} testid="chooser">
    ${body}
    <button type="button" class="btn btn-ghost btn-block" onClick=${onCancel}>${t("table.cancel")}</button>
  <//>`;
}
