// The log's sentences (narrate.js, the "<game>_events" words) download once the log has a line; until then none shows.
import { useEffect, useState } from "../lib.js";
import { loadWords } from "../i18n.js";
import { gameInfo } from "./registry.js";

const loads = new Map(); // game -> the download of its narrator
const ready = new Map(); // game -> narrate, once in

function load(game) {
  if (!loads.has(game)) {
    const events = gameInfo(game)?.events; // the manifest's word part of the log's sentences
    const load = Promise.all([import("./narrate.js"), events && loadWords(events)]).then(([m]) => {
      const line = (e, names) => m.narrate(e, names, game);
      ready.set(game, line);
      return line;
    });
    load.catch(() => loads.delete(game)); // a later line may try again
    loads.set(game, load);
  }
  return loads.get(game);
}

/** `line(event, names)` for `game`'s log, or null while its words download. */
export function useLogLine(game, log) {
  const [line, setLine] = useState(() => ready.get(game) || null);
  const wanted = log.length > 0;
  useEffect(() => {
    if (line || !wanted) return undefined;
    let live = true;
    load(game).then((l) => live && setLine(() => l), () => {});
    return () => { live = false; };
  }, [game, wanted, line]);
  return line;
}
