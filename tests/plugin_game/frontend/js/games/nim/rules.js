// Nim's rules page.
import { html } from "../../lib.js";
import { Page } from "../../ui.js";

export function NimRules() {
  return html`<${Page} title="Nim"><p data-testid="rules" data-game="nim">Take 1, 2 or 3; the last stone wins.</p><//>`;
}
