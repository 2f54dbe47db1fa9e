// Server clocks counted down on this page (docs/api.md, Time controls and clocks).
// A `state` frame's durations are relative to the moment it was built, so the page notes
// performance.now() on receipt and counts from there; every new frame replaces the reckoning.
import { useEffect, useState } from "../lib.js";

/** A frame's clock with the moment it reads at (null stays null). A difference-frame clock (docs/api.md)
 * stood still `age_ms` before it arrived and names the running seats' turn times in `running_ms`. */
export function reckon(clock, at = performance.now()) {
  if (!clock) return null;
  if (!clock.running_ms) return { ...clock, at };
  const turn = [];
  clock.running.forEach((seat, i) => { turn[seat] = clock.running_ms[i]; });
  return { ...clock, turn_ms: turn, at: at - (clock.age_ms || 0) };
}

/** The clock as it read when the connection dropped (`at`): it stands still there, marked stale, until a
 * new frame replaces it (a page that hears nothing cannot know whose time runs). */
export function freeze(r, at = performance.now()) {
  return r && r.frozen == null ? { ...r, frozen: at } : r;
}

/** The moment a reckoning reads at: now, or when it froze. */
export const readAt = (r, now = performance.now()) => (r && r.frozen != null ? Math.min(now, r.frozen) : now);

/** How long a running seat has been on its turn at `now` (ms), null for a seat not asked. */
export function turnMs(r, seat, now = performance.now()) {
  if (!r || !r.turn_ms || r.turn_ms[seat] == null) return null;
  return r.turn_ms[seat] + (readAt(r, now) - r.at);
}

export const isTimed = (r) => !!r && (r.kind === "realtime" || r.kind === "turn_based");

/** When the shown text next changes (ms from now): tenths, seconds or minutes, at most a second away. */
function nextChange(ms, fine) {
  const step = fine ? 100 : 1000;
  return Math.min(1000, (ms % step) + 1);
}

/** Re-renders its user whenever `valueAt()` would read differently; a timeout to the next change, never an interval. */
export function useCountdown(valueAt, running, fine) {
  const [, setTick] = useState(0);
  const ms = valueAt();
  useEffect(() => {
    if (!running || ms == null) return undefined;
    const id = setTimeout(() => setTick((n) => n + 1), nextChange(ms, fine(ms)));
    return () => clearTimeout(id);
  });
  return ms;
}

/** A countdown as m:ss (the tags' and notices' grace and reclaim times). */
export const mmss = (ms) => { const s = Math.ceil(Math.max(0, ms) / 1000); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; };
