// "Your move" cues: a short beep made in code (WebAudio, no sound file), a phone buzz, and a
// browser notification while the page is hidden, the last only after the player opted in.
// The tab title's "Your move" prefix is match.js's. Choices live in localStorage.
import { useEffect, useRef, useState } from "../lib.js";
import { t } from "../i18n.js";

const KEYS = { sound: "cues:sound", notify: "cues:notify" };

function read(key, fallback) {
  try { const v = localStorage.getItem(key); return v == null ? fallback : v === "on"; } catch { return fallback; }
}
function write(key, on) {
  try { localStorage.setItem(key, on ? "on" : "off"); } catch { /* private mode: the choice lasts this page */ }
}

export const notificationsSupported = () => typeof window.Notification === "function";

/** The player's cue choices: sound (on unless muted) and notifications (off until asked for and allowed). */
export function useCueSettings() {
  const [sound, setSound] = useState(() => read(KEYS.sound, true));
  const [notify, setNotify] = useState(() => read(KEYS.notify, false) && notificationsSupported() && Notification.permission === "granted");
  return {
    sound, notify,
    setSound(on) { write(KEYS.sound, on); setSound(on); if (on) beep(); },
    /** Opting in asks the browser's permission now (a tap is what browsers require); a refusal leaves it off. */
    async setNotify(on) {
      if (on && notificationsSupported() && Notification.permission !== "granted") {
        let answer = "denied";
        try { answer = await Notification.requestPermission(); } catch { answer = "denied"; }
        if (answer !== "granted") { write(KEYS.notify, false); setNotify(false); return false; }
      }
      write(KEYS.notify, on);
      setNotify(on && notificationsSupported());
      return true;
    },
  };
}

let audio = null;
/** Whether the player has tapped or typed on this page yet: browsers allow sound and buzzing only then. */
const touched = () => !navigator.userActivation || navigator.userActivation.hasBeenActive;

/** Two short rising tones, quiet: enough to notice, not to startle. */
export function beep() {
  if (!touched()) return; // before a gesture the browser would refuse (and complain)
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const start = audio.currentTime + 0.01;
    [[660, 0], [880, 0.12]].forEach(([freq, at]) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.18, start + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.11);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + at);
      osc.stop(start + at + 0.12);
    });
  } catch { /* no audio on this device */ }
}

// Browsers let audio start only after a gesture on the page: the first tap anywhere unlocks it.
function unlockOnFirstTap() {
  const unlock = () => {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (Ctx && !audio) { try { audio = new Ctx(); } catch { audio = null; } }
    if (audio && audio.state === "suspended") audio.resume().catch(() => {});
  };
  document.addEventListener("pointerdown", unlock, { once: true, capture: true });
  document.addEventListener("keydown", unlock, { once: true, capture: true });
}

/** Cue the player when a move becomes theirs (not on opening the page where it already is). */
export function useMoveCues(myMove, settings, title) {
  const was = useRef(null);
  useEffect(unlockOnFirstTap, []);
  useEffect(() => {
    const before = was.current;
    was.current = myMove;
    if (!myMove || before !== false) return;
    if (settings.sound) beep();
    if (navigator.vibrate && touched()) { try { navigator.vibrate([80, 60, 80]); } catch { /* not allowed here */ } }
    if (settings.notify && document.hidden && notificationsSupported() && Notification.permission === "granted") {
      try {
        const n = new Notification(t("match.cue.title"), { body: title, tag: "your-move", renotify: true, icon: "/app/icon.svg" });
        n.onclick = () => { window.focus(); n.close(); };
      } catch { /* some browsers allow notifications only from a service worker */ }
    }
  }, [myMove]);
}
