// The match log: the REST history (`/api/matches/<id>/events/`, every line this
// viewer may see, a player's own private lines included, each with its version)
// followed by the events the socket brought since, which a reload folds back in.

/** A `state` message's events, tagged with the versions they came between. */
export function tagEvents(events, after, version) {
  return events.map((e) => ({ ...e, version, after }));
}

/** A reloaded history `rest` replaces the log; socket events it cannot yet
 * hold (from state messages after its newest event) are kept after it. */
export function withHistory(log, rest) {
  const top = rest.reduce((m, e) => Math.max(m, e.version), -1);
  return rest.concat(log.filter((e) => e.after != null && e.after >= top));
}
