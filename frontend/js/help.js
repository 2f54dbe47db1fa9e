// "What does this do?" on the tables (frontend/README.md, Learning to play): a tap on a passive piece, a long
// press (right click, menu key) on one that acts, opens a sheet. `helpOn(info, { active, words })`: `info()`
// gives { title, text, picture, more } (or its promise) when the sheet opens, after the catalogue parts `words` names arrive.
import { loadWords } from "./i18n.js";
import { loadCss } from "./lazy.js";

const PRESS_MS = 480;
const SLOP_PX = 10;

let press = null; // { timer, x, y }
let swallowClick = false; // the click that ends a long press must not also act

/** Opens the sheet for `info` (a function, see above). Native <dialog>: it traps focus, Escape closes it, focus returns. */
export async function showHelp(info, words) {
  // The sheet, its look and its words arrive on first use: a table does not carry them.
  const [sheet] = await Promise.all([import("./help_sheet.js"), loadCss("/app/help.css"), ...[].concat(words || []).map(loadWords)]);
  sheet.openSheet(typeof info === "function" ? await info() : info);
}

function cancelPress() {
  if (press) clearTimeout(press.timer);
  press = null;
}

/** Props that give an element its help (see the top of this file). */
export function helpOn(info, { active = false, words } = {}) {
  const open = () => { showHelp(info, words).catch(() => {}); };
  const props = {
    "data-help": "",
    onContextMenu: (e) => { e.preventDefault(); cancelPress(); open(); },
  };
  if (!active) {
    return {
      ...props, role: "button", tabIndex: 0, "aria-haspopup": "dialog",
      onClick: (e) => { e.stopPropagation(); open(); },
      onKeyDown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); open(); } },
    };
  }
  return {
    ...props,
    onPointerDown: (e) => {
      if (e.button !== 0) return;
      cancelPress();
      swallowClick = false;
      press = { x: e.clientX, y: e.clientY, timer: setTimeout(() => { press = null; swallowClick = true; open(); }, PRESS_MS) };
    },
    onPointerMove: (e) => { if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > SLOP_PX) cancelPress(); },
    onPointerUp: cancelPress,
    onPointerCancel: cancelPress,
    onPointerLeave: cancelPress,
    onClickCapture: (e) => { if (swallowClick) { swallowClick = false; e.preventDefault(); e.stopImmediatePropagation(); } },
  };
}
