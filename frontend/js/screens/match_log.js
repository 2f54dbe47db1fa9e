// The match log. Its public part is the REST history (`/api/matches/<id>/events/`,
// each event with its version) plus the public events the socket brought since;
// a player's private lines (`to` lists seats) come only over that player's own
// socket, so they are kept in memory here and put back into the public history
// after every reload. Nothing else is ever fetched: another seat's private
// events never reach this page.

/** Splits a `state` message's events (those of versions after..version, in order).
 * Public ones are tagged with the message's versions; each private line records how
 * many public events precede it after version `after`, which places it exactly
 * in a history reloaded later (the same events, from the same log). */
export function splitEvents(events, after, version) {
  const pub = [];
  const lines = [];
  for (const e of events) {
    if (e.to == null) pub.push({ ...e, version, after });
    else lines.push({ event: e, after, before: pub.length });
  }
  return { pub, lines };
}

/** A reloaded history `rest` replaces the public log; socket events it cannot yet
 * hold (from state messages after its newest event) are kept after it. */
export function withHistory(pub, rest) {
  const top = rest.reduce((m, e) => Math.max(m, e.version), -1);
  return rest.concat(pub.filter((e) => e.after != null && e.after >= top));
}

/** The log as shown: the public events with the private lines where they were received. */
export function mergeLog(pub, lines) {
  if (!lines.length) return pub;
  const at = lines.map((l) => {
    let n = 0;
    while (n < pub.length && pub[n].version <= l.after) n += 1;
    return n + l.before;
  });
  const out = [];
  let j = 0;
  pub.forEach((e, i) => {
    for (; j < lines.length && at[j] <= i; j += 1) out.push(lines[j].event);
    out.push(e);
  });
  for (; j < lines.length; j += 1) out.push(lines[j].event);
  return out;
}
