// The God's Playground table. Every control comes from `legal_actions`: the
// table stages, groups and labels them but never decides what is legal.
import { html, useEffect, useRef, useState } from "../../lib.js";
import { t } from "../../i18n.js";
import { Notice, seatName } from "../../ui.js";
import { PHASES, phaseName } from "./board.js";
import { ActionGroups, BidPanel, Chooser, NobleStager, decisionHelp } from "./decide.js";
import { GpMap } from "./map.js";
import { EnemyBoxes, Log, NobleTiles, PhaseTrack, Players, Result } from "./parts.js";
import { statusText } from "./words.js";

// Single-step choices that also work by tapping the province on the map.
const PHASE_NO = Object.fromEntries(PHASES.map((p, i) => [p, i + 1]));
const MAP_TYPES = new Set(["place_estate", "buy_estate", "reduce_nobles"]);

export function GodsPlaygroundTable({ match, view, legal, seat, version, send, pending: sending, rejection, clearRejection, log, presence, connected }) {
  const pending = sending || !connected;
  const [chooser, setChooser] = useState(null);
  useEffect(() => setChooser(null), [version]);
  const names = (s) => seatName(match, s);
  const mine = legal.length > 0;
  const kind = view.pending && view.pending.kind;
  const spectator = view.you == null;
  const choices = {};
  for (const a of legal) if (MAP_TYPES.has(a.type)) choices[a.province] = a;
  const help = mine ? decisionHelp(kind, view) : "";
  const stager = kind === "nobles" && !spectator;
  const bidding = kind === "bid" && view.pending.seats.includes(view.you);
  // When a new decision becomes mine, bring it into sight (phones scroll far between the map and the panels).
  const actRef = useRef(null);
  const decision = mine ? `${view.round}/${view.phase}/${kind}` : "";
  useEffect(() => {
    if (!decision || !actRef.current) return;
    const r = actRef.current.getBoundingClientRect();
    if (r.top > innerHeight - 120 || r.bottom < 160) actRef.current.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [decision]);

  return html`<div class="gptable" data-testid="table" data-game="gods_playground" data-version=${version}
      data-phase=${view.phase} data-pending=${kind || ""} data-my-turn=${mine ? "yes" : "no"}>
    <div class=${"status" + (mine ? " status-mine" : "")} role="status" aria-live="polite" data-testid="status">
      <span class="status-text">${statusText(view, names, mine)}</span>
      <span class="tag" title=${phaseName(view.phase)}>${t("gp.round_tag", { n: view.round })}${PHASE_NO[view.phase] ? ` · ${PHASE_NO[view.phase]}/16` : ""}</span>
      ${spectator && html`<span class="tag" data-testid="watching">${t("table.watching")}</span>`}
      ${sending && html`<span class="tag" data-testid="sending">${t("table.sending")}</span>`}
    </div>
    <${Notice} onClose=${clearRejection}>${rejection}<//>
    <${Result} view=${view} names=${names} match=${match} log=${log} />
    <div class="gp-grid">
      <section class="gp-area-map panel" aria-label=${t("table.board")}>
        <${GpMap} view=${view} names=${names} choices=${mine && Object.keys(choices).length ? choices : null} onChoose=${send} />
        <p class="muted gp-legend">${t("gp.legend.band")} · <span class="gp-leg-income">n</span> ${t("gp.legend.income")} · <span
          class="gp-leg-disc">${t("gp.m.sejm_mark")}</span> ${t("gp.legend.rest")}</p>
      </section>
      <div class="gp-area-act" ref=${actRef}>
        ${stager && html`<${NobleStager} view=${view} legal=${legal} send=${send} pending=${pending} version=${version} rejection=${rejection} names=${names} />`}
        ${kind === "bid" && html`<${BidPanel} view=${view} legal=${bidding ? legal : []} send=${send} pending=${pending} names=${names} />`}
        ${mine && !stager && kind !== "bid" && html`<section class="panel gp-decision" aria-labelledby="decide-title" data-testid="decision">
          <h2 id="decide-title">${view.pending && view.pending.second ? t("gp.second_cube") : phaseName(view.phase)}</h2>
          ${help && html`<p class="muted gp-help">${help}</p>`}
          <${ActionGroups} legal=${legal} view=${view} names=${names} send=${send} pending=${pending} setChooser=${setChooser} />
        </section>`}
      </div>
      <div class="gp-area-info">
        <${NobleTiles} view=${view} names=${names} />
        <section class="panel" aria-labelledby="players-title">
          <h2 id="players-title">${t("gp.families")}</h2>
          <${Players} view=${view} names=${names} presence=${presence}
            isBot=${(s) => (match.seats || []).some((x) => x.seat === s && !x.user && x.bot)} />
        </section>
      </div>
      <div class="gp-area-side">
        <${PhaseTrack} view=${view} />
        <${EnemyBoxes} view=${view} names=${names} />
        <section class="panel" aria-labelledby="log-title">
          <h2 id="log-title">${t("table.log")}</h2>
          <${Log} log=${log} names=${names} />
        </section>
      </div>
    </div>
    ${chooser && html`<${Chooser} ...${chooser} onPick=${(a) => { setChooser(null); send(a); }} onCancel=${() => setChooser(null)} />`}
  </div>`;
}
