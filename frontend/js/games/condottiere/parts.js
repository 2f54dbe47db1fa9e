// Pieces of the Condottiere table: cards, battle lines, players, log, result.
import { html, useEffect, useRef } from "../../lib.js";
import { lazyComponent, loadCss } from "../../lazy.js";
import { t } from "../../i18n.js";
import { Presence, SEAT_COLOURS, SeatDot } from "../../ui.js";
import { RULES_WORDS, cardInfo } from "./cards.js";
import { regionName } from "./board.js";
import { seatMarks } from "./map.js";
import { useLogLine } from "../log.js";
import { SeatBadge } from "../../match/seats.js";
import { helpOn } from "../../help.js";

/** What a card does, for the help sheet: its face, its effect, and the way to the card reference. */
export function cardHelp(code, hidden) {
  return () => {
    const info = code ? cardInfo(code) : null;
    return {
      title: info ? info.name : t("cd.facedown_card"),
      picture: html`<${Card} code=${code} nohelp />`,
      text: [info ? info.help : t("rc.help.facedown"), hidden && code && t("rc.help.yours_facedown")],
      more: [["/rules/condottiere#cards", t("cd.help.all_cards")], ["/rules/condottiere", t("cd.help.rules")]],
    };
  };
}

/** A face-up card, a face-down one (`code` null), as a button or as a picture. A tap on a card that cannot be
 * played, or a long press on one that can, says what it does (help.js); `nohelp` for the pictures in that sheet. */
/** A card in a row with one Tab stop (../roving.js) says so; elsewhere it is a Tab stop of its own. */
const roving = (tabIndex) => (tabIndex == null ? {} : { tabIndex, "data-roving": "" });

export function Card({ code, hidden, strength, small, onClick, disabled, selected, label, testid, nohelp, tabIndex }) {
  const info = code ? cardInfo(code) : null;
  const cls = "gcard" + (small ? " gcard-small" : "") + (info ? " gcard-" + info.kind : " gcard-back")
    + (hidden && code ? " gcard-facedown" : "") + (selected ? " selected" : "") + (onClick ? " playable" : "");
  const face = info
    ? html`<span class="gcard-value">${info.value != null ? info.value : info.glyph}</span>
        ${!(small && info.kind === "mercenary") && html`<span class="gcard-name">${info.kind === "mercenary" ? t("cd.mercenary") : info.name}</span>`}
        ${info.value != null && strength != null && info.value !== strength && html`<span class="gcard-strength" title=${t("cd.strength_now")}>${strength}</span>`}
        ${hidden && html`<span class="gcard-hidden-flag" title=${t("cd.face_down")}>◐</span>`}`
    : html`<span class="gcard-back-art" aria-hidden="true"></span>`;
  const aria = label || (info ? [info.name, strength != null && strength !== info.value && t("cd.counts", { n: strength }), hidden && t("cd.face_down")]
    .filter(Boolean).join(", ") : t("cd.facedown_card"));
  const help = nohelp ? {} : cardHelp(code, hidden);
  // A control is named by its text: the face is hidden from assistive technology and the words stand beside it
  // unseen, so the name says all the face says (WCAG 2.5.3, label in name) and more.
  const named = html`<span aria-hidden="true" class="gcard-face">${face}</span><span class="visually-hidden">${aria}</span>`;
  if (onClick && !disabled) {
    return html`<button type="button" class=${cls} onClick=${onClick} aria-pressed=${selected == null ? undefined : !!selected}
      data-card=${code} data-testid=${testid} ...${helpOn(help, { active: true, words: RULES_WORDS })} ...${roving(tabIndex)}>${named}</button>`;
  }
  if (onClick || disabled) {
    // Not playable now: aria-disabled (not disabled) so that a tap still reaches it and opens the help.
    return html`<button type="button" class=${cls} aria-disabled="true" aria-pressed=${selected == null ? undefined : !!selected}
      data-card=${code} data-testid=${testid} ...${helpOn(help, { words: RULES_WORDS })} role=${undefined} ...${roving(tabIndex)}>${named}</button>`;
  }
  if (nohelp) return html`<span class=${cls} role="img" aria-label=${aria} data-card=${code || "back"}>${face}</span>`;
  return html`<span class=${cls} data-card=${code || "back"} ...${helpOn(help, { words: RULES_WORDS })}>${named}</span>`;
}

/** `live`: the match is active (an ended one names nobody to play, whatever its game state says). */
export function BattleLines({ view, names, me, live = true }) {
  const b = view.battle;
  if (!b || !b.lines || !b.lines.length) return null;
  // Between battles the lines are empty; the last battle's summary says what happened.
  if (view.phase !== "battle" && view.phase !== "over" && b.lines.every((l) => !l.cards.length)) return null;
  return html`<ul class="lines" aria-label=${t("cd.lines")}>
    ${b.lines.map((line) => {
      const mine = line.seat === me;
      const turn = live && view.phase === "battle" && (view.to_move || [])[0] === line.seat;
      const extra = mine && line.strength_with_hidden != null && line.strength_with_hidden !== line.strength
        ? html` <span class="muted" title=${t("cd.with_hidden")}>(${line.strength_with_hidden})</span>` : null;
      return html`<li class=${"line" + (turn ? " turn" : "") + (line.passed ? " passed" : "") + (mine ? " mine" : "")}
          data-testid="line" data-seat=${line.seat}
          aria-label=${[t("cd.line_label", { name: names(line.seat), n: line.strength }), line.passed && t("cd.passed"), turn && t("cd.to_play")].filter(Boolean).join(", ")}>
        <div class="line-head">
          <${SeatDot} seat=${line.seat} />
          <span class="line-name">${names(line.seat)}${mine ? ` (${t("ui.you")})` : ""}</span>
          ${b.defender === line.seat && html`<span class="tag">${t("cd.defender")}</span>`}
          ${line.passed && html`<span class="tag tag-passed">${t("cd.passed")}</span>`}
          ${turn && html`<span class="tag tag-turn">${t("cd.to_play")}</span>`}
          <span class="line-strength" data-testid="strength" title=${t("cd.strength_now")}>${line.strength}${extra}</span>
        </div>
        <div class="line-cards">
          ${line.cards.length === 0 ? html`<span class="muted">${t("cd.no_cards")}</span>`
            : line.cards.map((c) => html`<${Card} small code=${c.card || null} hidden=${c.hidden} strength=${c.strength} />`)}
        </div>
      </li>`;
    })}
  </ul>`;
}

export function Players({ view, names, presence, isBot, live = true }) {
  const connected = presence && presence.connected ? new Set(presence.connected) : null;
  const b = view.battle || {};
  const usePoints = view.options && view.options.points;
  const marks = seatMarks(view, names, isBot);
  return html`<ul class="players" aria-label=${t("cd.players")}>
    ${view.players.map((p) => {
      // discard_hand asks everyone at once and in secret: no one is singled out.
      const turn = live && view.phase !== "discard_hand" && (view.to_move || []).includes(p.seat);
      const line = (b.lines || []).find((l) => l.seat === p.seat);
      return html`<li class=${"player" + (turn ? " turn" : "")} data-testid="player" data-seat=${p.seat}>
        <span class="player-colour" style=${{ background: SEAT_COLOURS[p.seat % 6] }} aria-hidden="true">${marks[p.seat]}</span>
        <div class="player-main">
          <div class="player-name">${names(p.seat)}${p.seat === view.seat ? html` <span class="tag tag-you">${t("ui.you")}</span>` : ""}
            ${connected && !isBot(p.seat) && html`<${Presence} on=${connected.has(p.seat)} />`}<${SeatBadge} seat=${p.seat} /></div>
          <div class="player-stats">
            <span title=${t("cd.in_hand")} aria-label=${t("cd.in_hand_n", { count: p.hand_count })}><span class="ico-card" aria-hidden="true"></span> ${p.hand_count}</span>
            <span title=${t("cd.regions_title")} aria-label=${t("cd.regions_n", { count: p.region_count, group: p.largest_group })}>⚑ ${p.region_count} <small>(${t("cd.joined", { n: p.largest_group })})</small></span>
            ${usePoints && html`<span title=${t("cd.points")}>★ ${p.points}</span>`}
          </div>
        </div>
        <div class="player-marks">
          ${view.token && view.token.holder === p.seat && html`<span class="mark mark-token" title=${t("cd.condottiere")}>⚔</span>`}
          ${view.legate == null && view.legate_seat === p.seat && html`<span class="mark mark-legate" title=${t("cd.keeps_legate")}>✝</span>`}
          ${line && line.passed && html`<span class="tag tag-passed">${t("cd.passed")}</span>`}
          ${turn && html`<span class="tag tag-turn">${t(view.phase === "battle" ? "cd.to_play" : "cd.to_choose")}</span>`}
        </div>
      </li>`;
    })}
  </ul>`;
}

/** One log line in words (also the table's last-event line), null until the log's words are in (../log.js). */
export const useLine = (log) => useLogLine("condottiere", log);

export function Log({ log, names, testid = "log" }) {
  const ref = useRef(null);
  const line = useLine(log);
  useEffect(() => { if (ref.current) ref.current.scrollTop = ref.current.scrollHeight; }, [log.length, !line]);
  const shown = line ? log.slice(-120) : [];
  // A Tab stop: a list that scrolls must be reachable by keyboard (WCAG 2.1.1).
  return html`<ol class="log" ref=${ref} aria-label=${t("table.what_happened")} data-testid=${testid} tabindex="0">
    ${shown.map((e) => html`<li class=${"log-" + (e.kind || "info")}>${line(e, names)}</li>`)}
  </ol>`;
}

/** The result card once the game is over (result.js and result.css, loaded then). */
const ResultCard = lazyComponent(() => Promise.all([import("./result.js"), loadCss("/app/result.css")]).then(([m]) => m.Result), null);
export function Result(props) {
  return props.view.result || (props.match && props.match.result) ? html`<${ResultCard} ...${props} />` : null;
}

export function LastBattle({ view, names }) {
  const lb = view.last_battle;
  if (!lb || view.phase === "battle") return null;
  const region = regionName(lb.region);
  const took = lb.winner == null ? t("cd.last.nobody", { region }) : t("cd.last.took", { name: names(lb.winner), region });
  return html`<p class="last-battle">${took}${lb.token_to != null ? " " + t("cd.last.token", { name: names(lb.token_to) }) : ""}</p>`;
}
