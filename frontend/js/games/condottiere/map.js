// The board as SVG: owners, the papal legate, the condottiere token, the
// battle under way, and (when it is your choice) the regions you may pick.
import { html } from "../../lib.js";
import { list, t } from "../../i18n.js";
import { SEAT_COLOURS } from "../../ui.js";
import { helpOn } from "../../help.js";
import { RULES_WORDS } from "./cards.js";
import { ADJACENCY, EDGES, LAND_PATH, REGION, REGIONS, regionName } from "./board.js";

const R = 24;

// A mark on the seal as well as a colour, for colour-blind players: the owner's
// initial, or everyone's seat number when initials would be ambiguous.
export function seatMarks(view, names, isBot) {
  const seats = (view.players || []).map((p) => p.seat);
  const initials = seats.map((s) => (isBot(s) ? "" : names(s).slice(0, 1).toUpperCase()));
  const unique = initials.every((x, i) => x && initials.indexOf(x) === i);
  return Object.fromEntries(seats.map((s, i) => [s, unique ? initials[i] : String(s + 1)]));
}

function Region({ r, owner, ownerName, mark, legate, battle, token, choice, onChoose }) {
  const colour = owner == null ? null : SEAT_COLOURS[owner % 6];
  const parts = [r.name, owner == null ? t("cd.map.free") : t("cd.map.held", { name: ownerName })];
  if (battle) parts.push(t("cd.map.battle"));
  if (legate) parts.push(t("cd.map.legate"));
  if (choice) parts.push(t("cd.map.choose"));
  const label = parts.join(", ");
  const act = choice ? () => onChoose(choice) : null;
  const key = choice ? (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); } } : null;
  // What the region is and what it is for: a tap when it is not a choice, a long press when it is.
  const help = () => ({
    title: r.name,
    text: [parts.slice(1).join(", "), t("rc.help.region"), t("rc.help.borders", { list: list(ADJACENCY[r.id].map(regionName)) })],
    more: [["/rules/condottiere", t("cd.help.rules")]],
  });
  return html`<g class=${"region" + (owner != null ? " owned" : "") + (choice ? " choosable" : "") + (battle ? " battle" : "")}
      transform=${`translate(${r.x} ${r.y})`} data-region=${r.id}
      role=${choice ? "button" : "img"} tabindex=${choice ? 0 : undefined} aria-label=${label}
      onClick=${act} onKeyDown=${key} ...${helpOn(help, { active: !!choice, words: RULES_WORDS })}>
    <circle class="hit" r=${R + 11} />
    ${battle && html`<circle class="battle-ring" r=${R + 7} />`}
    <circle class="seal" r=${R} style=${colour ? { fill: colour } : null} />
    ${owner != null && html`<text class="seal-mark" y="6" aria-hidden="true">${mark}</text>`}
    <text class="region-label" y=${R + 15} aria-hidden="true">${r.name}</text>
    ${token && html`<g class="token" transform=${`translate(${R - 4} ${-R + 2})`} aria-hidden="true">
      <circle r="11" /><text y="5">⚔</text></g>`}
    ${legate && html`<g class="legate" transform=${`translate(${-R + 4} ${-R + 2})`} aria-hidden="true">
      <circle r="11" /><text y="5">✝</text></g>`}
  </g>`;
}

export function BoardMap({ view, names, isBot, choices, onChoose }) {
  const battleRegion = view.battle && view.battle.region;
  const tokenRegion = view.token && view.token.region;
  const marks = seatMarks(view, names, isBot);
  return html`<svg class="board" viewBox="-6 0 492 700" role="group" aria-label=${t("cd.map.label")}
      data-testid="board" preserveAspectRatio="xMidYMid meet">
    <path class="land" d=${LAND_PATH} />
    <g class="roads" aria-hidden="true">
      ${EDGES.map(([a, b]) => html`<line x1=${REGION[a].x} y1=${REGION[a].y} x2=${REGION[b].x} y2=${REGION[b].y} />`)}
    </g>
    ${REGIONS.map((r) => {
      const owner = view.regions ? view.regions[r.id] : null;
      return html`<${Region} key=${r.id} r=${r} owner=${owner} ownerName=${owner == null ? "" : names(owner)} mark=${owner == null ? "" : marks[owner]}
        legate=${view.legate === r.id} battle=${battleRegion === r.id} token=${tokenRegion === r.id}
        choice=${choices && choices[r.id]} onChoose=${onChoose} />`;
    })}
  </svg>`;
}
