// What makes the "your move" cues (cues.js holds the choices and decides when): a beep made in code
// (WebAudio), a buzz, a notification while the page is hidden. Loaded when a move first becomes the player's
// or the sound is switched on.
import { t } from "../i18n.js";
import { notificationsSupported, sharedAudio } from "./cue_device.js";

/** Whether the player has tapped or typed on this page yet: browsers allow sound and buzzing only then. */
const touched = () => !navigator.userActivation || navigator.userActivation.hasBeenActive;

/** Two short rising tones, quiet: enough to notice, not to startle. */
export function beep() {
  if (!touched()) return; // before a gesture the browser would refuse (and complain)
  try {
    const audio = sharedAudio(true);
    if (!audio) return;
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

/** The cues themselves, for a move that has just become the player's (cues.js's useMoveCues). */
export function cue(settings, title) {
  if (settings.sound) beep();
  if (navigator.vibrate && touched()) { try { navigator.vibrate([80, 60, 80]); } catch { /* not allowed here */ } }
  if (settings.notify && document.hidden && notificationsSupported() && Notification.permission === "granted") {
    try {
      const n = new Notification(t("match.cue.title"), { body: title, tag: "your-move", renotify: true, icon: "/app/icon.svg" });
      n.onclick = () => { window.focus(); n.close(); };
    } catch { /* some browsers allow notifications only from a service worker */ }
  }
}
