// One Tab stop for a row of controls and the arrow keys within it (the roving tabindex of the WAI-ARIA
// practices): a keyboard player reaches a hand of ten cards with one Tab, not ten.
import { useState } from "../lib.js";

const STEP = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** `group` goes on the container, `tabIndex(i)` on its i-th item (which also carries `data-roving`). */
export function useRoving(count) {
  const [at, setAt] = useState(0);
  const current = Math.max(0, Math.min(at, count - 1));
  const items = (e) => [...e.currentTarget.querySelectorAll("[data-roving]")];
  const onKeyDown = (e) => {
    const all = items(e);
    const i = all.indexOf(document.activeElement);
    if (i < 0) return;
    const next = e.key === "Home" ? 0 : e.key === "End" ? all.length - 1 : e.key in STEP ? (i + STEP[e.key] + all.length) % all.length : -1;
    if (next < 0) return;
    e.preventDefault();
    all[next].focus();
    // Wholly in sight: in a row that scrolls sideways (the hand) a card can be half hidden, and "nearest" would be
    // undone by the row's snapping to each card's start.
    const row = e.currentTarget.getBoundingClientRect();
    const r = all[next].getBoundingClientRect();
    if (r.left < row.left || r.right > row.right) all[next].scrollIntoView({ block: "nearest", inline: "start" });
  };
  const onFocusIn = (e) => {
    const i = items(e).indexOf(e.target);
    if (i >= 0) setAt(i);
  };
  return { group: { onKeyDown, onFocusIn }, tabIndex: (i) => (i === current ? 0 : -1) };
}
