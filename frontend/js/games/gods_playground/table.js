// The God's Playground table. Every control comes from `legal_actions`: the
// table stages, groups and labels them but never decides what is legal.
import { html, useEffect, useRef, useState } from "../../lib.js";
import { loadWords, t } from "../../i18n.js";
import { lazyComponent, loadCss } from "../../lazy.js";
import { Notice, seatName, seatShort } from "../../ui.js";
import { LastEvent, useFocusInside } from "../sheet.js";
import { PHASES } from "./layout.js";
import { GpMap } from "./map.js";
import { Digest, EnemyBoxes, Log, NobleTiles, PhaseTrack, Players, Result, useLine } from "./parts.js";
import { statusText } from "./words.js";
import { phaseHelp } from "./help.js";

// The decision panels come when the table first has one to show, each with its words and look: the nobles'
// layout (a match's first decision), the bids (which everyone at the table sees), any other decision, and the
// sheet a move's second question opens (whose words and look came with that decision).
const later = (...parts) => Promise.all(parts).then(([m]) => m);
const NobleStager = lazyComponent(() => later(import("./nobles.js"), loadWords("gods_playground_nobles"), loadCss("/app/gp_nobles.css"))
  .then((m) => m.NobleStager), null);
const BidPanel = lazyComponent(() => later(import("./bid.js"), loadWords("gods_playground_bid"), loadCss("/app/gp_bid.css")).then((m) => m.BidPanel), null);
const Decision = lazyComponent(() => later(import("./decide.js"), loadWords("gods_playground_decide"), loadCss("/app/gp_decide.css"))
  .then((m) => m.Decision), null);
const Chooser = lazyComponent(() => later(import("./chooser.js"), loadWords("gods_playground_decide"), loadCss("/app/gp_decide.css"))
  .then((m) => m.Chooser), null);

// Single-step choices that also work by tapping the province on the map.
const PHASE_NO = Object.fromEntries(PHASES.map((p, i) => [p, i + 1]));
const MAP_TYPES = new Set(["place_estate", "buy_estate", "reduce_nobles"]);

// On a phone the families, the phase track, the enemies and the log are below the map (gp.css): the first table
// draws the status, the map and the dock, and those panels come in the frame after, out of sight. From 820 px
// wide they stand beside the map and come with it.
const BESIDE = "(min-width: 820px)";
function useBelowFold() {
  const [shown, setShown] = useState(() => !window.matchMedia || matchMedia(BESIDE).matches);
  useEffect(() => { if (!shown) setShown(true); }, []); // effects run once the first table is painted
  return shown;
}

export function GodsPlaygroundTable({ match, view, legal, status = "active", seat, version, send, pending: sending, rejection, clearRejection, log, presence, connected }) {
  const pending = sending || !connected;
  const [chooser, setChooser] = useState(null);
  useEffect(() => setChooser(null), [version]);
  const names = (s) => seatName(match, s);
  const line = useLine(log);
  const short = (s) => seatShort(match, s);
  // Asked to move (the view's to_move); a seat out of the recruitment by its own word is not, yet has one move.
  const mine = legal.length > 0 && (view.to_move || []).includes(view.you);
  const resume = !mine && legal.some((a) => a.type === "recruit_resume");
  const kind = view.pending && view.pending.kind;
  const spectator = view.you == null;
  const choices = {};
  for (const a of legal) if (MAP_TYPES.has(a.type)) choices[a.province] = a;
  const live = status === "active";
  const stager = live && kind === "nobles" && !spectator;
  const bidding = live && kind === "bid" && view.pending.seats.includes(view.you);
  // The decision is docked at the bottom of the screen; when a new one asks for a province, the first province
  // it offers is brought into sight between the status and the dock, so the choice and the board show together.
  const actRef = useRef(null);
  const headRef = useRef(null);
  const decision = mine ? `${view.round}/${view.phase}/${kind}/${Object.keys(choices).join()}` : "";
  // On a phone the player may fold the decision down to a bar to see the whole board; a new decision unfolds it.
  const [folded, setFolded] = useState(false);
  useEffect(() => setFolded(false), [decision]);
  useEffect(() => {
    if (!decision || !Object.keys(choices).length) return;
    const tile = document.querySelector(".gp-tile.choosable");
    if (!tile || !actRef.current || !headRef.current) return;
    const r = tile.getBoundingClientRect();
    const top = headRef.current.getBoundingClientRect().bottom;
    const bottom = actRef.current.getBoundingClientRect().top;
    if (r.top < top || r.bottom > bottom) scrollBy({ top: r.top - top - 8, behavior: "smooth" });
  }, [decision]);
  const tableRef = useRef(null);
  useFocusInside(actRef, `${version}/${pending}`, tableRef);
  const below = useBelowFold();

  return html`<div class="gptable" ref=${tableRef} data-testid="table" data-game="gods_playground" data-version=${version}
      data-phase=${view.phase} data-pending=${kind || ""} data-my-turn=${mine ? "yes" : "no"} data-status=${status}>
    <div class="table-head" ref=${headRef}>
      <div class=${"status" + (mine ? " status-mine" : "")} role="status" aria-live="polite" data-testid="status">
        <span class="status-text">${statusText(view, names, mine, status)}</span>
        <span class="tag" ...${PHASE_NO[view.phase] ? phaseHelp(view.phase) : {}}>${t("gp.round_tag", { n: view.round })}${PHASE_NO[view.phase] ? ` · ${PHASE_NO[view.phase]}/16` : ""}</span>
        ${spectator && html`<span class="tag" data-testid="watching">${t("table.watching")}</span>`}
        ${sending && html`<span class="tag" data-testid="sending">${t("table.sending")}</span>`}
      </div>
      <${LastEvent} log=${log} line=${line && ((e) => line(e, names))}><${Log} log=${log} names=${names} testid="log-full" /><//>
    </div>
    <${Notice} onClose=${clearRejection}>${rejection}<//>
    <${Result} view=${view} names=${names} match=${match} log=${log} />
    ${live && html`<${Digest} log=${log} you=${view.you} names=${names} />`}
    <div class="gp-grid">
      <section class="gp-area-map panel" aria-label=${t("table.board")}>
        <${GpMap} view=${view} names=${names} short=${short} choices=${mine && Object.keys(choices).length ? choices : null} onChoose=${send} />
        <p class="muted gp-legend">${t("gp.legend.band")} · <span class="gp-leg-income">n</span> ${t("gp.legend.income")} · <span
          class="gp-leg-disc">${t("gp.m.sejm_mark")}</span> ${t("gp.legend.rest")} · <a href="/rules/gods_playground" data-testid="rules-link">${t("gp.help.rules")}</a></p>
      </section>
      <section class=${"dock gp-dock" + (folded ? " folded" : "")} ref=${actRef} aria-label=${t("table.your_moves")} data-testid="dock" tabindex="-1">
        ${stager && html`<${NobleStager} view=${view} legal=${legal} send=${send} pending=${pending} names=${names} />`}
        ${live && kind === "bid" && html`<${BidPanel} view=${view} legal=${bidding ? legal : []} send=${send} pending=${pending} names=${names} />`}
        ${(mine || resume) && !stager && kind !== "bid" && html`<${Decision} view=${view} legal=${legal} names=${names} send=${send}
          pending=${pending} setChooser=${setChooser} kind=${kind} />`}
        ${(mine || stager || (live && kind === "bid")) && html`<button type="button" class="dock-fold" aria-expanded=${!folded}
          data-testid="dock-fold" onClick=${() => setFolded(!folded)}>${t(folded ? "table.dock_show" : "table.dock_hide")}</button>`}
      </section>
      <div class="gp-area-info">
        ${below && html`<${NobleTiles} view=${view} names=${names} short=${short} />
        <section class="panel" aria-labelledby="players-title">
          <h2 id="players-title">${t("gp.families")}</h2>
          <${Players} view=${view} names=${names} presence=${presence} live=${live}
            isBot=${(s) => (match.seats || []).some((x) => x.seat === s && !x.user && x.bot)} />
        </section>`}
      </div>
      <div class="gp-area-side">
        ${below && html`<${PhaseTrack} view=${view} />
        <${EnemyBoxes} view=${view} names=${names} />
        <section class="panel" aria-labelledby="log-title">
          <h2 id="log-title">${t("table.log")}</h2>
          <${Log} log=${log} names=${names} />
        </section>`}
      </div>
    </div>
    ${chooser && html`<${Chooser} ...${chooser} onPick=${(a) => { setChooser(null); send(a); }} onCancel=${() => setChooser(null)} />`}
  </div>`;
}
