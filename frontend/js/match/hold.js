// A step where silence answers (the state's defaults_in_ms: Condottiere's keep-or-discard question) waits
// while its player's keyboard focus is on the table's controls (docs/api.md, the socket's `hold`), so a
// player moving by Tab is not overtaken by its 6-second window. The server bounds the wait.
import { useEffect, useRef } from "../lib.js";

const CONTROLS = "[data-testid=dock]";
const LOW_MS = 10000; // hold (again) when less than this is left and focus is still there

/** Sends the holds; returns a test for the socket's errors that answer one (they are no news to the player). */
export function useHoldWhileFocused(live, game, defaults, newId) {
  const sent = useRef(new Set());
  const asked = !!(game && game.legal.length && defaults);
  const version = game && game.version;
  useEffect(() => {
    if (!asked) return undefined;
    let done = false;
    let timer = null;
    const left = () => defaults.ms - (performance.now() - defaults.at);
    const inside = () => !!(document.activeElement && document.activeElement.closest(CONTROLS));
    const check = () => {
      if (done || !inside()) return;
      if (left() > LOW_MS) {
        timer = setTimeout(check, left() - LOW_MS);
        return;
      }
      done = true; // one hold per version: the answer is a new version
      const id = newId();
      sent.current.add(id);
      live.send({ type: "hold", version, id });
    };
    check();
    document.addEventListener("focusin", check);
    return () => { document.removeEventListener("focusin", check); clearTimeout(timer); };
  }, [asked, version]);
  return (m) => m.type === "error" && sent.current.has(m.id);
}
