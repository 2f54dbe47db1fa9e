// The Condottiere table. Every control comes from `legal_actions`: the table
// groups and labels them but never decides what is legal itself.
import { html, useEffect, useMemo, useRef, useState } from "../../lib.js";
import { list, t } from "../../i18n.js";
import { Notice, seatName } from "../../ui.js";
import { LastEvent, Sheet, useFocusInside } from "../sheet.js";
import { describeAction } from "../actions.js";
import { BoardMap } from "./map.js";
import { regionName } from "./board.js";
import { RULES_WORDS, cardName } from "./cards.js";
import { BattleLines, Card, LastBattle, Log, Players, Result, useLine } from "./parts.js";
import { helpOn } from "../../help.js";
import { useRoving } from "../roving.js";

/** The condottiere token and the papal legate explain themselves when tapped (cd.hp.*). */
const pieceHelp = (id) => helpOn(() => ({ title: t(id === "token" ? "cd.condottiere" : "cd.legate"), text: t(`rc.hp.${id}`),
  more: [["/rules/condottiere", t("cd.help.rules")]] }), { words: RULES_WORDS });

/** A long press on a move button says what it does (help.js); `id` names its words (cd.hm.*). */
const moveHelp = (id, label) => helpOn(() => ({ title: label, text: t(`rc.hm.${id}`), more: [["/rules/condottiere", t("cd.help.rules")]] }),
  { active: true, words: RULES_WORDS });

function byType(legal) {
  const out = {};
  for (const a of legal) (out[a.type] = out[a.type] || []).push(a);
  return out;
}

function statusText(view, me, names, groups, status) {
  // A match that ended (finished, aborted) keeps the game where it stopped: the status says so, not whose turn.
  if (status === "aborted") return t("table.aborted");
  if (status !== "active") return t("table.over");
  const movers = view.to_move || [];
  // Whether I act comes from my legal actions: view.to_move may still list a seat that has answered a simultaneous question.
  const mine = Object.keys(groups).length > 0;
  const who = list(movers.map(names));
  const region = view.battle && view.battle.region ? regionName(view.battle.region) : "";
  switch (view.phase) {
    case "place_token": return mine ? t("cd.st.token_mine") : t("cd.st.token", { who });
    case "battle": {
      const fight = view.battle && view.battle.final ? "final" : region ? "for" : "any";
      return t(mine ? `cd.st.battle_mine_${fight}` : `cd.st.battle_${fight}`, { who, region });
    }
    case "legate": return mine ? t("cd.st.legate_mine") : t("cd.st.legate", { who });
    case "discard_hand":
      if (!mine) return t(me == null ? "cd.st.discard_watch" : "cd.st.discard_wait");
      return t(groups.discard_hand ? "cd.st.discard_mine" : "cd.st.continue");
    case "keep": return mine ? t("cd.st.keep_mine") : t("cd.st.keep", { who });
    case "over": return t("table.over");
    default: return who ? t("cd.st.act", { who }) : "";
  }
}

function battleTitle(view) {
  const b = view.battle || {};
  const region = b.region ? regionName(b.region) : "";
  if (view.phase === "over") return t("cd.bt.final_position");
  if (view.phase !== "battle") return region ? t(b.final ? "cd.bt.next_final" : "cd.bt.next", { region }) : t("cd.bt.between");
  return region ? t(b.final ? "cd.bt.final_for" : "cd.bt.for", { region }) : t(b.final ? "cd.bt.final" : "cd.bt.battle");
}

/** A card that needs a second answer (the Scarecrow's target) asks for it in a sheet. */
function Chooser({ title, options, onPick, onCancel }) {
  return html`<${Sheet} title=${title} titleId="chooser-title" onCancel=${onCancel} testid="chooser">
    <div class="chips">${options.map((o, i) => html`<button type="button" class="btn" data-autofocus=${i === 0 ? "" : undefined}
      data-testid="choice" onClick=${() => onPick(o.action)}>${o.label}</button>`)}</div>
    <button type="button" class="btn btn-ghost btn-block" onClick=${onCancel}>${t("table.cancel")}</button>
  <//>`;
}

function Hand({ view, groups, send, pending, setChooser }) {
  const [keep, setKeep] = useState([]);
  const hand = view.hand || [];
  const plays = groups.play || [];
  const keeps = groups.keep || [];
  useEffect(() => setKeep([]), [view.phase, hand.join()]);
  const roving = useRoving(hand.length);
  if (view.hand == null) return null;

  const keepMode = keeps.length > 0;
  const chosen = keep.map((i) => hand[i]).sort();
  const keepAction = keeps.find((a) => a.cards.length === chosen.length && [...a.cards].sort().every((c, i) => c === chosen[i]));
  const maxKeep = Math.max(0, ...keeps.map((a) => a.cards.length));

  function tap(code, i) {
    if (pending) return;
    if (keepMode) {
      setKeep(keep.includes(i) ? keep.filter((x) => x !== i) : keep.length < maxKeep ? keep.concat(i) : keep);
      return;
    }
    const options = plays.filter((a) => a.card === code);
    if (options.length === 1) send(options[0]);
    else if (options.length > 1) {
      setChooser({
        title: code === "scarecrow" ? t("cd.scarecrow_q") : t("cd.play_how", { card: cardName(code) }),
        options: options.map((a) => ({
          action: a,
          label: "take" in a ? (a.take ? t("cd.take_back", { card: cardName(a.take) }) : t("cd.take_nothing")) : describeAction(a),
        })),
      });
    }
  }

  return html`<section class="hand-panel" aria-labelledby="hand-title" data-testid="hand">
    <div class="hand-head"><h2 id="hand-title">${t("cd.your_hand")} <span class="muted">(${hand.length})</span></h2>
      ${keepMode && html`<button type="button" class="btn btn-primary" data-testid="keep-confirm" disabled=${!keepAction || pending}
        onClick=${() => send(keepAction)}>${chosen.length ? t("cd.keep_cards", { cards: chosen.map(cardName).join(" + ") }) : t("cd.keep_nothing")}</button>`}
    </div>
    ${hand.length === 0 ? html`<p class="muted">${t("cd.no_cards_hand")}</p>` : html`<div class="hand" role="group" aria-label=${t("cd.hand_label")} ...${roving.group}>
      ${hand.map((code, i) => {
        const playable = keepMode || plays.some((a) => a.card === code);
        return html`<${Card} key=${i + code} code=${code} testid="hand-card" tabIndex=${roving.tabIndex(i)} onClick=${playable ? () => tap(code, i) : null}
          disabled=${!playable || pending} selected=${keepMode ? keep.includes(i) : undefined}
          label=${keepMode ? t(keep.includes(i) ? "cd.card_kept" : "cd.card_keep", { card: cardName(code) })
            : playable ? t("cd.card_play", { card: cardName(code) }) : cardName(code)} />`;
      })}</div>`}
  </section>`;
}

function Moves({ groups, send, pending }) {
  const buttons = [];
  for (const a of groups.pass || []) buttons.push([a, t(a.reveal ? "cd.mv.pass_reveal" : "cd.mv.pass"), a.reveal ? "pass-reveal" : "pass"]);
  for (const a of groups.wait || []) buttons.push([a, t("cd.mv.wait"), "wait"]);
  for (const a of groups.discard_hand || []) buttons.push([a, t("cd.mv.discard"), "discard"]);
  for (const a of groups.keep_hand || []) buttons.push([a, t(groups.discard_hand ? "cd.mv.keep_hand" : "cd.mv.continue"), "keep-hand"]);
  for (const a of groups.place_legate || []) if (a.region == null) buttons.push([a, t("cd.mv.legate_off"), "legate-off"]);
  const known = new Set(["play", "pass", "wait", "discard_hand", "keep_hand", "place_legate", "place_token", "keep"]);
  for (const [type, list] of Object.entries(groups)) if (!known.has(type)) for (const a of list) buttons.push([a, describeAction(a), type]);
  if (!buttons.length) return null;
  return html`<div class="moves" role="group" aria-label=${t("cd.moves")}>
    ${buttons.map(([a, label, id]) => html`<button type="button" class=${"btn " + (id.startsWith("pass") ? "btn-pass" : "btn-primary")}
      data-testid=${"move-" + id} disabled=${pending} onClick=${() => send(a)} ...${moveHelp(id.replace(/-/g, "_"), label)}>${label}</button>`)}
  </div>`;
}

function RegionChoices({ choices, title, onChoose, pending }) {
  const ids = Object.keys(choices);
  if (!ids.length) return null;
  return html`<div class="region-choices" role="group" aria-label=${title}>
    <span class="region-choices-title">${title}</span>
    <div class="chips chips-row">${ids.map((id) => html`<button type="button" class="btn btn-chip" data-testid="region-choice" data-region=${id}
      disabled=${pending} onClick=${() => onChoose(choices[id])} ...${moveHelp(choices[id].type, regionName(id))}>${regionName(id)}</button>`)}</div>
  </div>`;
}

export function CondottiereTable({ match, view, legal, status = "active", seat, version, send, pending: sending, rejection, clearRejection, log, presence, connected }) {
  // While the socket is down nothing can be sent, so the controls wait too.
  const pending = sending || !connected;
  const [chooser, setChooser] = useState(null);
  const names = (s) => seatName(match, s);
  const line = useLine(log);
  const isBot = (s) => (match.seats || []).some((x) => x.seat === s && !x.user && x.bot);
  const groups = useMemo(() => byType(legal), [legal]);
  const me = view.seat != null ? view.seat : seat;
  const regionActs = groups.place_token || groups.place_legate || [];
  const choices = {};
  for (const a of regionActs) if (a.region) choices[a.region] = a;
  const choiceTitle = t(groups.place_token ? "cd.choose_battle" : "cd.choose_legate");
  useEffect(() => setChooser(null), [version]);

  const b = view.battle || {};
  const spectator = view.hand == null;
  const myTurn = legal.length > 0;
  const goal = view.targets || {};
  const dock = useRef(null);
  const tableRef = useRef(null);
  useFocusInside(dock, `${version}/${pending}`, tableRef);
  return html`<div class="ctable" ref=${tableRef} data-testid="table" data-version=${version} data-phase=${view.phase}
      data-my-turn=${myTurn ? "yes" : "no"} data-status=${status}>
    <div class="table-head">
      <div class=${"status" + (myTurn ? " status-mine" : "")} role="status" aria-live="polite" data-testid="status">
        <span class="status-text">${statusText(view, me, names, groups, status)}</span>
        ${spectator && html`<span class="tag" data-testid="watching">${t("table.watching")}</span>`}
        ${sending && html`<span class="tag" data-testid="sending">${t("table.sending")}</span>`}
      </div>
      <${LastEvent} log=${log} line=${line && ((e) => line(e, names))}><${Log} log=${log} names=${names} testid="log-full" /><//>
    </div>
    <${Notice} onClose=${clearRejection}>${rejection}<//>
    ${view.phase === "over" && html`<${Result} view=${view} names=${names} match=${match} />`}
    <div class="ctable-grid">
      <section class="area-map panel" aria-label=${t("table.board")}>
        <${BoardMap} view=${view} names=${names} isBot=${isBot} choices=${Object.keys(choices).length ? choices : null} onChoose=${send} />
        ${spectator && html`<${RegionChoices} choices=${choices} title=${choiceTitle} onChoose=${send} pending=${pending} />`}
        <p class="map-legend muted"><span class="legend-token" ...${pieceHelp("token")}>⚔ ${t("cd.condottiere")}</span> · <span class="legend-legate" ...${pieceHelp("legate")}>✝ ${
          t("cd.legate")}</span> · ${t("cd.to_win", { total: goal.total, adjacent: goal.adjacent })} <a href="/rules/condottiere" data-testid="rules-link">${t("cd.help.rules")}</a></p>
      </section>
      <section class="area-battle panel" aria-labelledby="battle-title">
        <div class="panel-head">
          <h2 id="battle-title">${battleTitle(view)}</h2>
          ${b.season && html`<span class=${"tag tag-" + b.season}>${b.season === "winter" ? "❄" : "✿"} ${cardName(b.season)}</span>`}
        </div>
        <${LastBattle} view=${view} names=${names} />
        <${BattleLines} view=${view} names=${names} me=${me} live=${status === "active"} />
        <div class="counts"><span>${t("cd.deck")} <strong data-testid="deck-count">${view.deck_count}</strong></span>
          <span>${t("cd.discard")} <strong>${view.discard_count}</strong></span>
          <span>${t("cd.round")} <strong>${view.round}</strong></span>${view.game_no > 1 && html`<span>${t("cd.game")} <strong>${view.game_no}</strong></span>`}</div>
      </section>
      <div class="area-side">
      <section class="area-players panel" aria-labelledby="players-title">
        <h2 id="players-title">${t("cd.players")}</h2>
        <${Players} view=${view} names=${names} presence=${presence} isBot=${isBot} live=${status === "active"} />
        ${presence && presence.spectators > 0 && html`<p class="muted">${t("table.spectators", { count: presence.spectators })}</p>`}
      </section>
      <section class="area-log panel" aria-labelledby="log-title">
        <h2 id="log-title">${t("table.log")}</h2>
        <${Log} log=${log} names=${names} />
      </section>
      </div>
    </div>
    ${!spectator && html`<section class="dock cdock" ref=${dock} aria-label=${t("table.your_moves")} data-testid="dock" tabindex="-1">
      <${RegionChoices} choices=${choices} title=${choiceTitle} onChoose=${send} pending=${pending} />
      <div class="dock-main">
        <${Hand} view=${view} groups=${groups} send=${send} pending=${pending} setChooser=${setChooser} />
        <${Moves} groups=${groups} send=${send} pending=${pending} />
      </div>
      ${chooser && html`<${Chooser} ...${chooser} onPick=${(a) => { setChooser(null); send(a); }} onCancel=${() => setChooser(null)} />`}
    </section>`}
  </div>`;
}
