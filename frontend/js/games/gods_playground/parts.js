// Panels around the map: the track, families, noble tiles, enemy boxes, the log and the result.
import { html, useEffect, useRef, useState } from "../../lib.js";
import { lazyComponent, loadCss } from "../../lazy.js";
import { t } from "../../i18n.js";
import { Presence } from "../../ui.js";
import {
  ENEMIES, ENEMY, FAMILIES, PHASES, ROUNDS, SLOTS, enemyName, homeOf, phaseName, printed,
  provinceAbbr, provinceName,
} from "./layout.js";
import { useLogLine } from "../log.js";
import { SeatBadge } from "../../match/seats.js";
import { boxHelp, phaseHelp } from "./help.js";
import { FamilyMark } from "./family_mark.js";

export function PhaseTrack({ view }) {
  const idx = PHASES.indexOf(view.phase);
  const round = ROUNDS.includes(view.round) ? t(`gp.round.${view.round}`) : "";
  return html`<section class="panel gp-track" aria-labelledby="track-title">
    <div class="panel-head"><h2 id="track-title">${t("gp.t.round", { n: view.round, name: round })}</h2>
      </div>
    <p class="gp-phase-now">${view.phase === "setup" ? t("gp.t.setup") : t("gp.t.phase", { n: idx + 1, name: phaseName(view.phase) })}</p>
    <ol class="gp-rounds" aria-label=${t("gp.t.rounds")}>${ROUNDS.map((r) => html`<li class=${r === view.round ? "now" : r < view.round ? "past" : ""}
      aria-current=${r === view.round ? "step" : undefined}>${r}<span>${t(`gp.round.${r}`)}</span></li>`)}</ol>
    <ol class="gp-phases" aria-label=${t("gp.t.phases")}>${PHASES.map((p, i) => html`<li
      class=${i === idx ? "now" : i < idx ? "past" : ""} aria-current=${i === idx ? "step" : undefined}>
      <span class="gp-phase-n" aria-label=${`${i + 1}, ${phaseName(p)}`} ...${phaseHelp(p)}>${i + 1}</span></li>`)}</ol>
    ${view.last_roll && view.last_roll.length > 0 && html`<p class="muted gp-dice">${t("gp.t.dice")} ${view.last_roll.map((d) => html`<span class="gp-die">${d}</span>`)}</p>`}
  </section>`;
}

/** `live`: the match is active (an ended one names nobody to act, whatever its game state says). */
export function Players({ view, names, presence, isBot, live = true }) {
  const connected = presence && presence.connected ? new Set(presence.connected) : null;
  const sup = view.supply || {};
  return html`<ul class="gp-players" aria-label=${t("gp.families")}>
    ${[0, 1, 2].map((s) => {
      const turn = live && (view.to_move || []).includes(s);
      return html`<li class=${"gp-player" + (turn ? " turn" : "")} data-testid="player" data-seat=${s}>
        <${FamilyMark} seat=${s} />
        <div class="gp-player-main">
          <div class="gp-player-name">${names(s)}${s === view.you ? html` <span class="tag tag-you">${t("ui.you")}</span>` : ""}
            ${view.start === s && html`<span class="tag gp-king" title=${t("gp.p.start_title")}>♛ ${t("gp.p.start")}</span>`}
            ${turn && html`<span class="tag tag-turn">${t("gp.p.to_act")}</span>`}
            ${connected && !isBot(s) && html`<${Presence} on=${connected.has(s)} />`}<${SeatBadge} seat=${s} /></div>
          <div class="muted gp-player-family">${FAMILIES[s]} · ${t(`gp.colour.${s}`)}</div>
          <dl class="gp-stats">
            <div><dt>${t("gp.p.talers")}</dt><dd data-testid="money">${view.money[s]}</dd></div>
            <div><dt>${t("gp.vp")}</dt><dd data-testid="vp">${view.vp[s]}</dd></div>
            <div><dt>${t("gp.p.cubes")}</dt><dd>${(sup.cubes || [])[s] ?? "–"}</dd></div>
            <div><dt>${t("gp.p.discs")}</dt><dd>${(sup.discs || [])[s] ?? "–"}</dd></div>
          </dl>
          <div class="gp-hand" role="img" aria-label=${t("gp.p.hand_label", { list: (view.hand[s] || []).join(", ") || t("ui.none") })}>
            ${(view.hand[s] || []).length > 0 && html`<span class="muted gp-hand-label" aria-hidden="true">${t("gp.p.tiles")}</span>`}${(view.hand[s] || []).map((v) => html`<span class="gp-tile-chip small" aria-hidden="true">${v}</span>`)}</div>
        </div>
      </li>`;
    })}
  </ul>`;
}

/** This round's noble tiles: backs for others' secret ones, faces once revealed (or for your own). */
export function NobleTiles({ view, names, short }) {
  const revealed = view.revealed;
  const secret = view.pending && view.pending.kind === "nobles";
  if (!revealed && !secret) return null;
  return html`<section class="panel gp-nobles" aria-labelledby="nobles-title">
    <h2 id="nobles-title">${t("gp.nt.title")}</h2>
    <div class="gp-scroll"><table class="gp-table">
      <thead><tr><th scope="col">${t("gp.nt.family")}</th>${SLOTS.map((s) => html`<th scope="col" title=${provinceName(s)}>${provinceAbbr(s)}</th>`)}</tr></thead>
      <tbody>${[0, 1, 2].map((seat) => {
        const own = seat === view.you ? view.your_nobles || {} : {};
        const count = (view.nobles_placed || [])[seat] || 0;
        let backs = count - Object.keys(own).length;
        return html`<tr><th scope="row" title=${names(seat)}>${short(seat)}</th>${SLOTS.map((slot) => {
          if (revealed) return html`<td><span class="gp-tile-chip small on">${revealed[seat][slot]}</span></td>`;
          if (slot in own) return html`<td><span class="gp-tile-chip small on" aria-label=${t("gp.nt.yours", { v: own[slot] })}>${own[slot]}</span></td>`;
          // Others' placements: how many, never where; backs fill the row from the left.
          if (seat !== view.you && backs > 0) { backs -= 1; return html`<td><span class="gp-tile-chip small back" aria-label=${t("gp.nt.back")}>?</span></td>`; }
          return html`<td><span class="gp-tile-chip small empty" aria-label=${t("gp.nt.empty")}>·</span></td>`;
        })}</tr>`;
      })}</tbody>
    </table></div>
    ${secret && html`<p class="muted">${t("gp.nt.secret")}</p>`}
  </section>`;
}

export function EnemyBoxes({ view, names }) {
  return html`<section class="panel gp-enemies" aria-labelledby="enemies-title">
    <h2 id="enemies-title">${t("gp.e.title")}</h2>
    <ul class="gp-enemy-list">${ENEMIES.map((c) => {
      const e = ENEMY[c];
      const board = printed(view);
      const box = view.box[c];
      const nobles = [0, 1, 2].filter((s) => box.nobles[s]);
      // The list item stays a list item; what explains the box when tapped is inside it.
      return html`<li class="gp-enemy" data-enemy=${c}><div class="gp-enemy-in" ...${boxHelp(c, view)}>
        <span class="gp-enemy-swatch" style=${{ background: e.colour, color: e.ink }} aria-hidden="true">${view.strength[c]}</span>
        <div>
          <strong>${enemyName(c)}</strong> <span class="muted">(${t(`gp.ecolour.${c}`)}) → ${provinceName(homeOf(view, c))}</span>
          ${view.treaty === c && html` <span class="tag">${t("gp.treaty")}</span>`}
          <div class="gp-enemy-line">${t("gp.e.line", { n: view.strength[c], count: box.cubes, vp: board.enemy_vp[c] })}</div>
          <div class="gp-enemy-line gp-track" data-testid=${`track-${c}`}>${t("gp.e.track")} <span class="gp-track-steps">${board.enemy_strength[c].map((n, i) => html`<span
            class=${i + 1 === view.round ? "gp-track-now" : ""} aria-current=${i + 1 === view.round ? "true" : null}>${n}</span>`)}</span></div>
          <div class="gp-enemy-line muted">${t("gp.e.raids", { list: board.raid_arrows[c].map(provinceName).join(", ") })}</div>
          ${(nobles.length > 0 || box.royal > 0) && html`<div class="gp-enemy-line">${t("gp.e.hits", { list: nobles.map((s) => `${names(s)} ${box.nobles[s]}`)
            .concat(box.royal ? [t("gp.e.royal", { n: box.royal })] : []).join(", ") })}</div>`}
          ${c === "purple" && (view.influence > 0 || view.turks_on_habsburg > 0) && html`<div class="gp-enemy-line">${[t("gp.e.influence", { n: view.influence }),
            view.turks_on_habsburg && t("gp.e.turks", { n: view.turks_on_habsburg }), view.turks_hold_habsburg && t("gp.e.held")].filter(Boolean).join(" · ")}</div>`}
        </div>
      </div></li>`;
    })}</ul>
    <p class="muted gp-supply">${t("gp.e.supply", { s: view.stewards_left, t: view.towns_left, r: view.supply.royal_cubes, i: view.supply.influence })}</p>
  </section>`;
}

/** One log line in words (also the table's last-event line), null until the log's words are in (../log.js). */
export const useLine = (log) => useLogLine("gods_playground", log);

export function Log({ log, names, testid = "log" }) {
  const ref = useRef(null);
  const line = useLine(log);
  useEffect(() => { if (ref.current) ref.current.scrollTop = ref.current.scrollHeight; }, [log.length, !line]);
  // A Tab stop: a list that scrolls must be reachable by keyboard (WCAG 2.1.1).
  return html`<ol class="log gp-log" ref=${ref} aria-label=${t("table.what_happened")} data-testid=${testid} tabindex="0">
    ${(line ? log.slice(-150) : []).map((e) => html`<li class=${"log-" + (e.kind || "info") + (e.kind === "phase" ? " gp-log-phase" : "")}>${line(e, names)}</li>`)}
  </ol>`;
}

/** The result card once the game is over (result.js and result.css, loaded then). */
const ResultCard = lazyComponent(() => Promise.all([import("./result.js"), loadCss("/app/result.css")]).then(([m]) => m.Result), null);
export function Result(props) {
  return props.view.over ? html`<${ResultCard} ...${props} />` : null;
}

// "Meanwhile": what the phases nobody decides settled since this player's last move (the king and the bids, the
// Sejm elections, invasions and raids, estates lost), on a card above the map when it comes, not only in the log.
const MY_MOVES = new Set(["estate", "noble_secret", "shortage", "bid_secret", "estates_done", "steward", "danzig", "treaty",
  "treaty_failed", "move", "veto", "right_of_arms", "jesuits", "town", "special_pass", "recruit", "recruit_pass",
  "recruit_done", "recruit_resume", "campaign", "campaigns_done", "counterattack", "counterattack_pass"]);
const DIGEST = new Set(["bids_revealed", "king", "king_kept", "election", "election_none", "treaty_broken", "invasion", "raid",
  "cossack_defects", "turks_vienna", "estate_lost"]);

/** The digest's events: those of DIGEST after `you`'s last move in `log` (none for a spectator), and where they start. */
export function digestOf(log, you) {
  if (you == null) return { from: log.length, events: [] };
  let from = log.length;
  while (from > 0 && !(MY_MOVES.has(log[from - 1].kind) && log[from - 1].seat === you)) from -= 1;
  if (from === 0) return { from: 0, events: [] }; // no move of this player yet: the setup has nothing to tell
  return { from, events: log.slice(from).filter((e) => DIGEST.has(e.kind) && e.params) };
}

const ELECTED = new Set(["election", "election_none"]);

/** One line for a phase's Sejm elections, winners first with the provinces each took (a card a phone can hold). */
function electionsLine(elections, names) {
  const won = new Map();
  for (const e of elections) {
    const who = e.kind === "election" ? names(e.seat) : t("gp.digest.nobody");
    if (!won.has(who)) won.set(who, []);
    won.get(who).push(provinceName(e.params.province));
  }
  return t("gp.digest.elections", { list: [...won].map(([who, ps]) => `${who} (${ps.join(", ")})`).join("; ") });
}

/** The card's lines as [kind, text]: each event as the log words it, a run of elections as one line. */
function digestLines(events, line, names) {
  const runs = [];
  for (const e of events) {
    const last = runs[runs.length - 1];
    if (ELECTED.has(e.kind) && last && ELECTED.has(last[0].kind)) last.push(e);
    else runs.push([e]);
  }
  return runs.map((run) => (ELECTED.has(run[0].kind) ? ["election", electionsLine(run, names)] : [run[0].kind, line(run[0], names)]));
}

export function Digest({ log, you, names }) {
  const line = useLine(log);
  const { from, events } = digestOf(log, you);
  const [closed, setClosed] = useState(-1);
  if (!line || !events.length || closed === from) return null;
  return html`<section class="panel gp-digest" aria-labelledby="digest-title" data-testid="digest">
    <div class="gp-digest-head"><h2 id="digest-title">${t("gp.digest.title")}</h2>
      <button type="button" class="btn btn-ghost gp-digest-close" data-testid="digest-close" onClick=${() => setClosed(from)}>${t("gp.digest.close")}</button></div>
    <ul class="gp-digest-list">${digestLines(events, line, names).map(([kind, text]) => html`<li data-kind=${kind}>${text}</li>`)}</ul>
  </section>`;
}
