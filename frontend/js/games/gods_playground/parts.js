// Panels around the map: round and phase track, families, noble tiles, enemy
// boxes, supplies, the log and the result.
import { html, useEffect, useRef } from "../../lib.js";
import {
  ENEMIES, ENEMY, ENEMY_VP, FAMILIES, FAMILY_COLOURS, FAMILY_COLOUR_NAMES, FAMILY_INK, PHASES, ROUND_NAMES, SLOTS,
  provinceName,
} from "./board.js";
import { logText } from "./words.js";

export function PhaseTrack({ view }) {
  const idx = PHASES.findIndex(([p]) => p === view.phase);
  return html`<section class="panel gp-track" aria-labelledby="track-title">
    <div class="panel-head"><h2 id="track-title">Round ${view.round} of 4 · ${ROUND_NAMES[view.round - 1] || ""}</h2>
      </div>
    <p class="gp-phase-now">${view.phase === "setup" ? "Setup: starting estates" : `Phase ${idx + 1} of 16: ${PHASES[idx][1]}`}</p>
    <ol class="gp-rounds" aria-label="Rounds">${[1, 2, 3, 4].map((r) => html`<li class=${r === view.round ? "now" : r < view.round ? "past" : ""}
      aria-current=${r === view.round ? "step" : undefined}>${r}<span>${ROUND_NAMES[r - 1]}</span></li>`)}</ol>
    <ol class="gp-phases" aria-label="Phases of the round">${PHASES.map(([p, label], i) => html`<li
      class=${i === idx ? "now" : i < idx ? "past" : ""} aria-current=${i === idx ? "step" : undefined} title=${label}>
      <span class="gp-phase-n" aria-label=${`${i + 1}, ${label}`}>${i + 1}</span></li>`)}</ol>
    ${view.last_roll && view.last_roll.length > 0 && html`<p class="muted gp-dice" aria-label=${`Last dice: ${view.last_roll.join(", ")}`}>Last dice: ${view.last_roll.map((d) => html`<span class="gp-die">${d}</span>`)}</p>`}
  </section>`;
}

export function FamilyMark({ seat, size = 28 }) {
  return html`<span class="gp-family" style=${{ background: FAMILY_COLOURS[seat], color: FAMILY_INK[seat], width: size + "px", height: size + "px" }}
    aria-hidden="true">${FAMILIES[seat][0]}</span>`;
}

export function Players({ view, names, presence, isBot }) {
  const connected = presence && presence.connected ? new Set(presence.connected) : null;
  const sup = view.supply || {};
  return html`<ul class="gp-players" aria-label="Families">
    ${[0, 1, 2].map((s) => {
      const turn = (view.to_move || []).includes(s);
      return html`<li class=${"gp-player" + (turn ? " turn" : "")} data-testid="player" data-seat=${s}>
        <${FamilyMark} seat=${s} />
        <div class="gp-player-main">
          <div class="gp-player-name">${names(s)}${s === view.you ? html` <span class="tag tag-you">you</span>` : ""}
            ${view.start === s && html`<span class="tag gp-king" title="Start player (the king's favour)">♛ start</span>`}
            ${turn && html`<span class="tag tag-turn">to act</span>`}
            ${connected && !isBot(s) && html`<span class=${"presence" + (connected.has(s) ? " on" : "")} aria-label=${connected.has(s) ? "online" : "offline"}></span>`}</div>
          <div class="muted gp-player-family">${FAMILIES[s]} · ${FAMILY_COLOUR_NAMES[s]}</div>
          <dl class="gp-stats">
            <div><dt>Talers</dt><dd data-testid="money">${view.money[s]}</dd></div>
            <div><dt>VP</dt><dd data-testid="vp">${view.vp[s]}</dd></div>
            <div><dt>Cubes left</dt><dd>${(sup.cubes || [])[s] ?? "–"}</dd></div>
            <div><dt>Discs left</dt><dd>${(sup.discs || [])[s] ?? "–"}</dd></div>
          </dl>
          <div class="gp-hand" role="img" aria-label=${`Noble tiles left this half: ${(view.hand[s] || []).join(", ") || "none"}`}>
            ${(view.hand[s] || []).length > 0 && html`<span class="muted gp-hand-label" aria-hidden="true">tiles</span>`}${(view.hand[s] || []).map((v) => html`<span class="gp-tile-chip small" aria-hidden="true">${v}</span>`)}</div>
        </div>
      </li>`;
    })}
  </ul>`;
}

/** This round's noble tiles: backs for others' secret ones, faces once revealed (or for your own). */
export function NobleTiles({ view, names }) {
  const revealed = view.revealed;
  const secret = view.pending && view.pending.kind === "nobles";
  if (!revealed && !secret) return null;
  return html`<section class="panel gp-nobles" aria-labelledby="nobles-title">
    <h2 id="nobles-title">Noble tiles this round</h2>
    <div class="gp-scroll"><table class="gp-table">
      <thead><tr><th scope="col">Family</th>${SLOTS.map((s) => html`<th scope="col" title=${provinceName(s)}>${SHORT[s]}</th>`)}</tr></thead>
      <tbody>${[0, 1, 2].map((seat) => {
        const own = seat === view.you ? view.your_nobles || {} : {};
        const count = (view.nobles_placed || [])[seat] || 0;
        let backs = count - Object.keys(own).length;
        return html`<tr><th scope="row">${names(seat)}</th>${SLOTS.map((slot) => {
          if (revealed) return html`<td><span class="gp-tile-chip small on">${revealed[seat][slot]}</span></td>`;
          if (slot in own) return html`<td><span class="gp-tile-chip small on" aria-label=${`your ${own[slot]}`}>${own[slot]}</span></td>`;
          // Others' placements: how many, never where; backs fill the row from the left.
          if (seat !== view.you && backs > 0) { backs -= 1; return html`<td><span class="gp-tile-chip small back" aria-label="face-down tile">?</span></td>`; }
          return html`<td><span class="gp-tile-chip small empty" aria-label="not placed">·</span></td>`;
        })}</tr>`;
      })}</tbody>
    </table></div>
    ${secret && html`<p class="muted">Face-down tiles show how many each family has placed, not where.</p>`}
  </section>`;
}

const SHORT = { prussia: "Pru", lithuania: "Lit", ukraine: "Ukr", little_poland: "LPo", great_poland: "GPo", royal: "♛" };

export function EnemyBoxes({ view, names }) {
  return html`<section class="panel gp-enemies" aria-labelledby="enemies-title">
    <h2 id="enemies-title">Enemy boxes</h2>
    <ul class="gp-enemy-list">${ENEMIES.map((c) => {
      const e = ENEMY[c];
      const box = view.box[c];
      const nobles = [0, 1, 2].filter((s) => box.nobles[s]);
      return html`<li class="gp-enemy" data-enemy=${c}>
        <span class="gp-enemy-swatch" style=${{ background: e.colour, color: e.ink }} aria-hidden="true">${view.strength[c]}</span>
        <div>
          <strong>${e.name}</strong> <span class="muted">(${c}) → ${provinceName(e.home)}</span>
          ${view.treaty === c && html` <span class="tag">treaty</span>`}
          <div class="gp-enemy-line">Strength ${view.strength[c]} · ${box.cubes} enemy cube${box.cubes === 1 ? "" : "s"} on the box · most cubes here: ${ENEMY_VP[c]} VP</div>
          ${(nobles.length > 0 || box.royal > 0) && html`<div class="gp-enemy-line">Hits: ${nobles.map((s) => `${names(s)} ${box.nobles[s]}`).join(", ")}${box.royal ? `${nobles.length ? ", " : ""}royal ${box.royal}` : ""}</div>`}
          ${c === "purple" && (view.influence > 0 || view.turks_on_habsburg > 0) && html`<div class="gp-enemy-line">Influence markers ${view.influence}${view.turks_on_habsburg ? ` · Turkish cubes ${view.turks_on_habsburg}` : ""}${view.turks_hold_habsburg ? " · held by the Turks" : ""}</div>`}
        </div>
      </li>`;
    })}</ul>
    <p class="muted gp-supply">Stewards left ${view.stewards_left} · towns left ${view.towns_left} · royal cubes ${view.supply.royal_cubes} · influence markers ${view.supply.influence}</p>
  </section>`;
}

export function Log({ log, names }) {
  const ref = useRef(null);
  useEffect(() => { if (ref.current) ref.current.scrollTop = ref.current.scrollHeight; }, [log.length]);
  return html`<ol class="log gp-log" ref=${ref} aria-label="What happened" data-testid="log">
    ${log.slice(-150).map((e) => html`<li class=${"log-" + (e.kind || "info") + (e.kind === "phase" ? " gp-log-phase" : "")}>${logText(e.text, names)}</li>`)}
  </ol>`;
}

export function Result({ view, names, match, log }) {
  if (!view.over) return null;
  // The engine's ranking (tie-breaks included) comes with the game-over event or the match record; never recomputed here.
  const over = [...log].reverse().find((e) => e.kind === "game_over" && Array.isArray(e.ranking));
  const ranking = (match && match.result && match.result.ranking) || (over && over.ranking) || null;
  const order = ranking || [0, 1, 2];
  const winner = ranking ? ranking[0] : null;
  const headline = winner == null ? "Final scores" : winner === view.you ? "You win!" : `${names(winner)} wins`;
  const estates = view.final_estate_vp;
  return html`<section class="result card" data-testid="result" aria-labelledby="result-title">
    <h2 id="result-title">${headline}</h2>
    <p class="muted">Most VP wins; ties go to most noble cubes on the board, then most talers, then nearest the start player.</p>
    <ol class="scores">${order.map((s) => html`<li class=${s === winner ? "winner" : ""}>
      <${FamilyMark} seat=${s} size=${22} /><span class="gp-score-who">${names(s)}<small class="muted">${estates ? `${estates[s]} VP from estates · ` : ""}${view.money[s]} taler${view.money[s] === 1 ? "" : "s"} left</small></span>
      <strong data-testid="final-vp">${view.vp[s]} VP</strong></li>`)}</ol>
    <div class="actions"><a class="btn btn-primary" href="/">Back to the lobbies</a><a class="btn" href="/matches">My matches</a></div>
  </section>`;
}
