// The match menu's ⋯ button; what it opens (menu_dialogs.js), its words and look load on the first tap.
import { html, useState } from "../lib.js";
import { loadWords, t } from "../i18n.js";
import { lazyComponent, loadCss } from "../lazy.js";
import { useSeats } from "./seats.js";

const MenuDialogs = lazyComponent(() => Promise.all([import("./menu_dialogs.js"), loadWords("match_menu"), loadCss("/app/match_menu.css")])
  .then(([m]) => m.MenuDialogs), null);

/** The ⋯ button and what it opens. `cues` is useCueSettings()'s answer. */
export function MatchMenu({ cues }) {
  const ctx = useSeats();
  const [open, setOpen] = useState(null); // null | "menu" | "resign" | "abort"
  if (!ctx || ctx.mySeat == null) return null; // spectators have nothing to resign, abort or be cued for
  return html`<button type="button" class="btn mbar-menu" aria-haspopup="dialog" data-testid="match-menu"
      aria-label=${t("match.menu.open")} onClick=${() => setOpen("menu")}><span aria-hidden="true">⋯</span></button>
    ${open && html`<${MenuDialogs} open=${open} setOpen=${setOpen} cues=${cues} />`}`;
}
