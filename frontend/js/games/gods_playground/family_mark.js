// A family's coloured initial: shared by the players panel (parts.js) and the result card (result.js).
import { html } from "../../lib.js";
import { FAMILIES, FAMILY_COLOURS, FAMILY_INK } from "./layout.js";

export function FamilyMark({ seat, size = 28 }) {
  return html`<span class="gp-family" style=${{ background: FAMILY_COLOURS[seat], color: FAMILY_INK[seat], width: size + "px", height: size + "px" }}
    aria-hidden="true">${FAMILIES[seat][0]}</span>`;
}
