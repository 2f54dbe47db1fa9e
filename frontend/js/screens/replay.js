// A finished match, step by step (docs/api.md, Replays): the game's own table drawn read-only at one
// version, the narrated log beside it with that step's lines marked, and first/back/forward/last,
// a slider and the arrow keys to move. Everyone replays the public view; a player of the match may
// switch to their own seat's view (their hand) too. Loaded on first use, with its words and styles.
import { html, useEffect, useMemo, useRef, useState } from "../lib.js";
import { get } from "../api.js";
import { num, t } from "../i18n.js";
import { NotFound, Notice, Page, Spinner, gameName, seatName, siteTitle } from "../ui.js";
import { useGames } from "./common.js";
import { tableFor } from "../games/tables.js";
import { useLogLine } from "../games/log.js";
import { loadCss } from "../lazy.js";
import { loadWords } from "../i18n.js";

// Its words and looks come with the screen, never with the pages that only link here.
// lobby.css: the tabs the view switch is drawn as.
await Promise.all([loadWords("replay"), loadCss("/app/lobby.css"), loadCss("/app/replay.css")]);

const nothing = () => {};

/** Steps fetched once per view and kept: stepping back and forth asks the server for each step once. */
function useSteps(id, seat) {
  const cache = useRef(new Map());
  const fetchStep = (step) => {
    const key = `${seat}/${step}`;
    let hit = cache.current.get(key);
    if (!hit) {
      hit = get(`/api/matches/${id}/replay/${step}/${seat == null ? "" : `?seat=${seat}`}`);
      hit.catch(() => cache.current.delete(key)); // a failed step is asked again next time
      cache.current.set(key, hit);
    }
    return hit;
  };
  return fetchStep;
}

/** The address keeps the step and the view, so a reload or a shared link lands on the same position. */
function address(id, step, seat) {
  const q = new URLSearchParams();
  if (step) q.set("step", step);
  if (seat != null) q.set("seat", seat);
  const s = q.toString();
  return `/match/${id}/replay${s ? "?" + s : ""}`;
}

function ReplayLog({ events, step, names, game, onJump }) {
  const ref = useRef(null);
  const line = useLogLine(game, events); // the game's log sentences, once downloaded

  // The current step's lines are scrolled into the log's own box (never the page).
  useEffect(() => {
    const box = ref.current;
    const on = box && box.querySelector(".replay-now");
    if (on) box.scrollTop = on.offsetTop - box.offsetTop - box.clientHeight / 3;
  }, [step, events]);
  return html`<ol class="log replay-log" ref=${ref} aria-label=${t("replay.log_label")} data-testid="replay-log">
    <li class=${step === 0 ? "replay-now" : ""} aria-current=${step === 0 ? "step" : undefined}>
      <button type="button" class="replay-line" onClick=${() => onJump(0)}>${t("replay.start")}</button></li>
    ${events.map((e, i) => {
      const now = e.version === step;
      return html`<li key=${i} class=${"log-" + (e.kind || "info") + (now ? " replay-now" : e.version > step ? " replay-later" : "")}
        aria-current=${now ? "step" : undefined} data-step=${e.version}>
        <button type="button" class="replay-line" onClick=${() => onJump(e.version)}>
          <span class="replay-no">${num(e.version)}</span> ${line ? line(e, names) : ""}</button></li>`;
    })}
  </ol>`;
}

function Controls({ step, steps, go }) {
  const btn = (id, label, to, icon) => html`<button type="button" class="btn replay-btn" data-testid=${"replay-" + id}
    aria-label=${label} title=${label} disabled=${to === step || to < 0 || to > steps} onClick=${() => go(to)}>${icon}</button>`;
  return html`<div class="replay-bar" role="group" aria-label=${t("replay.controls")} data-testid="replay-bar">
    ${btn("first", t("replay.first"), 0, "|◀")}${btn("back", t("replay.back"), step - 1, "◀")}
    <input type="range" class="replay-slider" min="0" max=${steps} value=${step} data-testid="replay-slider"
      aria-label=${t("replay.slider")} aria-valuetext=${t("replay.step_of", { n: num(step), total: num(steps) })}
      onInput=${(e) => go(Number(e.target.value))} />
    ${btn("forward", t("replay.forward"), step + 1, "▶")}${btn("last", t("replay.last"), steps, "▶|")}
    <span class="replay-count" data-testid="replay-count" aria-live="polite">${t("replay.step_of", { n: num(step), total: num(steps) })}</span>
  </div>`;
}

export function ReplayScreen({ params, query, user }) {
  const id = params[0];
  const { games } = useGames();
  const [match, setMatch] = useState(null);
  const [error, setError] = useState(null); // {status, message}
  const [seatAsked, setSeatAsked] = useState(() => (query.get("seat") ? Number(query.get("seat")) : null));
  const mySeat = match && user ? (match.seats.find((s) => s.user && s.user.id === user.id) || {}).seat : undefined;
  const seat = seatAsked != null && seatAsked === mySeat ? mySeat : null;
  const [step, setStep] = useState(() => Math.max(0, Number(query.get("step")) || 0));
  const [log, setLog] = useState(null); // {steps, events}
  const [shown, setShown] = useState(null); // the step answer on screen
  const [ready, setReady] = useState(false); // the game's table (and with it its words) has loaded
  const fetchStep = useSteps(id, seat);
  const game = match && match.game;
  const Table = tableFor(game);
  const ended = match && match.status !== "active";

  useEffect(() => {
    get(`/api/matches/${id}/`).then(setMatch, (e) => setError({ status: e.status, message: e.message }));
  }, [id]);
  useEffect(() => {
    if (!game) return;
    (Table.load ? Table.load() : Promise.resolve()).then(() => setReady(true), (e) => setError({ message: e.message }));
  }, [game]);
  useEffect(() => {
    if (!ended) return;
    setLog(null);
    get(`/api/matches/${id}/replay/${seat == null ? "" : `?seat=${seat}`}`).then(setLog, (e) => setError({ status: e.status, message: e.message }));
  }, [ended, seat]);
  const steps = log ? log.steps : 0;
  const at = Math.min(step, steps);
  useEffect(() => {
    if (!log) return undefined;
    let live = true;
    fetchStep(at).then((s) => { if (live) setShown(s); }, (e) => live && setError({ status: e.status, message: e.message }));
    // The neighbours too, so the next tap either way shows at once.
    if (at < steps) fetchStep(at + 1).catch(nothing);
    if (at > 0) fetchStep(at - 1).catch(nothing);
    return () => { live = false; };
  }, [log, at, seat]);

  // The address follows quietly (no history entry per step, no scrolling): the router only hears of real moves.
  useEffect(() => { if (log) history.replaceState(null, "", address(id, at, seat)); }, [log, at, seat]);
  const go = (to) => setStep(Math.max(0, Math.min(steps, to)));
  useEffect(() => {
    const key = (e) => {
      // The slider moves itself with the arrows; a sheet open over the table keeps its keys.
      if (e.altKey || e.ctrlKey || e.metaKey || (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName))) return;
      const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps }[e.key];
      if (to == null || document.querySelector("dialog[open]")) return;
      e.preventDefault();
      go(to);
    };
    document.addEventListener("keydown", key);
    return () => document.removeEventListener("keydown", key);
  }, [at, steps, seat]);

  const names = (s) => seatName(match, s);
  const upTo = useMemo(() => (log ? log.events.filter((e) => e.version <= at) : []), [log, at]);
  const name = game ? gameName(games, game) : t("match.match");
  const title = t("replay.title", { game: name, id });

  if (error && error.status === 404 && !match) return html`<${NotFound} text=${t("notfound.match", { id })} />`;
  if (match && !ended) {
    return html`<${Page} title=${title} tab=${siteTitle(title)}>
      <${Notice} kind="info">${t("replay.still_active")}<//><p><a class="btn btn-primary" href=${`/match/${id}`} data-testid="watch-live">${t("replay.watch")}</a></p><//>`;
  }
  const viewSwitch = mySeat != null && html`<div class="tabs replay-views" role="group" aria-label=${t("replay.whose")}>
    ${[[null, t("replay.public")], [mySeat, t("replay.mine")]].map(([s, label]) => html`<button type="button" class=${"tab" + (s === seat ? " active" : "")}
      aria-pressed=${s === seat} data-testid=${s == null ? "replay-public" : "replay-mine"}
      onClick=${() => { if (s !== seat) { setShown(null); setSeatAsked(s); } }}>${label}</button>`)}</div>`;
  return html`<${Page} tab=${siteTitle(title)} wide>
    <div class="replay" data-testid="replay" data-step=${shown ? shown.step : ""} data-seat=${seat == null ? "" : seat}>
      <div class="replay-head"><h1>${title}</h1>
        <a class="btn btn-small" href=${`/match/${id}`} data-testid="replay-to-match">${t("replay.to_match")}</a>${viewSwitch}</div>
      ${error && html`<${Notice}>${error.message}<//>`}
      ${!shown || !ready || !log ? html`<${Spinner} label=${t("replay.loading")} />` : html`<div class="replay-grid">
        <div class="replay-table">
          <${Table} match=${match} view=${shown.view} legal=${[]} seat=${seat} version=${shown.step} send=${nothing}
            pending=${false} rejection="" clearRejection=${nothing} log=${upTo} presence=${null} user=${user} connected=${false} />
        </div>
        <section class="panel replay-side" aria-labelledby="replay-log-title">
          <h2 id="replay-log-title">${t("table.log")}</h2>
          <${ReplayLog} events=${log.events} step=${at} names=${names} game=${game} onJump=${go} />
        </section>
      </div>`}
      ${log && html`<${Controls} step=${at} steps=${steps} go=${go} />`}
    </div>
  <//>`;
}
