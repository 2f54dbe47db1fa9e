// The match log: the REST history (`/api/matches/<id>/events/`, every line this
// viewer may see, a player's own private lines included, each with its version)
// and the events each `state` message brings.
//
// Each connection's first state (version S) carries no events: the lines up to S
// come from REST, only the part this page lacks (`?after=<what it holds>&upto=S`,
// the whole log the first time), and the socket's lines follow from S on. A page
// that reconnects thus fetches what happened while it was away, not the match again.
import { useRef, useState } from "../lib.js";
import { get } from "../api.js";

/** A `state` message's events, tagged with the versions they came between. */
export function tagEvents(events, after, version) {
  return events.map((e) => ({ ...e, version, after }));
}

/** The log with the REST lines of versions after+1..upto (`after` null: from the start) in their place:
 * what it held up to `after`, then `rest`, then the socket's lines after `upto`. */
export function withRange(log, rest, after, upto) {
  const from = after == null ? -1 : after;
  return log.filter((e) => e.version <= from).concat(rest, log.filter((e) => e.version > upto));
}

/** The log of match `id`, fed by match.js: `connected()` when a socket (re)opens, `state(m)` with each state. */
export function useMatchLog(id) {
  const [log, setLog] = useState([]);
  // top: the log holds every line up to this version (null: none yet); conn: this connection's first state
  // version and the newest it brought; whole: its REST part came in, so the log is whole up to `conn.last`.
  const r = useRef({ top: null, conn: null });
  function connected() {
    r.current.conn = null;
  }
  function state(m) {
    const k = r.current;
    const first = k.conn == null;
    if (first) {
      k.conn = { first: m.version, last: m.version, whole: false };
      const conn = k.conn;
      const after = k.top;
      if (after != null && after >= m.version) { conn.whole = true; return; } // nothing missed
      const qs = after == null ? `?upto=${m.version}` : `?after=${after}&upto=${m.version}`;
      get(`/api/matches/${id}/events/${qs}`).then((ev) => {
        const rest = Array.isArray(ev) ? ev : ev.results || [];
        setLog((l) => withRange(l, rest, after, m.version));
        conn.whole = true;
        if (k.conn === conn) k.top = Math.max(k.top ?? -1, conn.last);
      }, () => {}); // the next connection asks again from `top`
      return;
    }
    const was = k.conn.last;
    if (m.version <= was) return;
    k.conn.last = m.version;
    if (m.events && m.events.length) setLog((l) => l.concat(tagEvents(m.events, was, m.version)));
    if (k.conn.whole) k.top = m.version;
  }
  return { log, connected, state };
}
