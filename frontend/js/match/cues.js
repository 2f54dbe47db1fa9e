// "Your move" cues (a beep, a buzz, a notification while the page is hidden, the last only after the player
// opted in): the choices, kept in localStorage, and when; cue_play.js, loaded then, makes them.
import { useEffect, useRef, useState } from "../lib.js";
import { notificationsSupported, sharedAudio } from "./cue_device.js";

const KEYS = { sound: "cues:sound", notify: "cues:notify" };

function read(key, fallback) {
  try { const v = localStorage.getItem(key); return v == null ? fallback : v === "on"; } catch { return fallback; }
}
function write(key, on) {
  try { localStorage.setItem(key, on ? "on" : "off"); } catch { /* private mode: the choice lasts this page */ }
}

const play = () => import("./cue_play.js");

// Browsers let audio start only after a gesture: the first tap unlocks it, inside the gesture (so not lazily).
function unlockOnFirstTap() {
  const unlock = () => {
    const a = sharedAudio(true);
    if (a && a.state === "suspended") a.resume().catch(() => {});
  };
  document.addEventListener("pointerdown", unlock, { once: true, capture: true });
  document.addEventListener("keydown", unlock, { once: true, capture: true });
}

/** The player's cue choices: sound (on unless muted) and notifications (off until asked for and allowed);
 * `keep("sound" | "notify", on)` remembers one (the menu's switches, menu_dialogs.js, decide). */
export function useCueSettings() {
  const [sound, setSound] = useState(() => read(KEYS.sound, true));
  const [notify, setNotify] = useState(() => read(KEYS.notify, false) && notificationsSupported() && Notification.permission === "granted");
  return { sound, notify, keep(kind, on) { write(KEYS[kind], on); (kind === "sound" ? setSound : setNotify)(on); } };
}

/** Cue the player when a move becomes theirs (not on opening the page where it already is). */
export function useMoveCues(myMove, settings, title) {
  const was = useRef(null);
  useEffect(unlockOnFirstTap, []);
  useEffect(() => {
    const before = was.current;
    was.current = myMove;
    if (!myMove || before !== false) return;
    play().then((m) => m.cue(settings, title), () => {});
  }, [myMove]);
}
