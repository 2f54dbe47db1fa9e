// What the device offers the "your move" cues: the page's one AudioContext and whether it can notify.
// Shared by cues.js (which unlocks the audio inside the first tap) and cue_play.js (which plays on it).

export const notificationsSupported = () => typeof window.Notification === "function";

let audio = null;
/** The page's one AudioContext (`make`: now, if there is none yet). */
export function sharedAudio(make = false) {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (make && Ctx && !audio) { try { audio = new Ctx(); } catch { audio = null; } }
  return audio;
}
