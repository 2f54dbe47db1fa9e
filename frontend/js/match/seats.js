// Who plays each seat and how long it has: the strip above the table, the players panels' badges, the
// notices. match.js feeds the socket's frames in (useMatchSeats) and provides SeatsContext.
import { createContext, html, useContext, useRef, useState } from "../lib.js";
import { lazyComponent, loadCss } from "../lazy.js";
import { loadWords, t } from "../i18n.js";
import { SeatDot, seatName } from "../ui.js";
import { freeze, isTimed, mmss, reckon, turnMs, useCountdown } from "./clock.js";

/** One seat's clock face (clock_face.js, loaded when a timed match first shows one); none untimed. */
const Face = lazyComponent(() => Promise.all([import("./clock_face.js"), loadCss("/app/clock.css")]).then(([m]) => m.ClockFace), null);
const ClockFace = (props) => (isTimed(props.r) ? html`<${Face} ...${props} />` : null);

/** The tags (seat_tags.js, their words are match_menu's), loaded once a seat may need one (`ctx.tagged`). */
const Tags = lazyComponent(() => Promise.all([import("./seat_tags.js"), loadWords("match_menu")]).then(([m]) => m.SeatTags), null);
const SeatTags = ({ ctx, seat }) => (ctx.tagged ? html`<${Tags} ctx=${ctx} seat=${seat} />` : null);

export const SeatsContext = createContext(null);
export const useSeats = () => useContext(SeatsContext);

const PLATFORM_KINDS = new Set(["seat_to_bot", "seat_back", "aborted"]);

/** The match socket's seat news, kept for the components below: feed every message to `take`. */
export function useMatchSeats() {
  const [s, setS] = useState({ clock: null, control: [], defaults: null, connected: null, awayAt: {}, rematch: null });
  function take(m) {
    const now = performance.now();
    if (m.type === "state") {
      setS((x) => ({ ...x, clock: reckon(m.clock, now), control: m.control || [],
        defaults: m.defaults_in_ms == null ? null : { ms: m.defaults_in_ms, at: now } }));
    } else if (m.type === "presence") {
      // The grace counts from the later of the turn's start and the disconnection: note when we saw a seat go.
      setS((x) => {
        const awayAt = { ...x.awayAt };
        const on = new Set(m.connected || []);
        for (const seat of on) delete awayAt[seat];
        if (x.connected) for (const seat of x.connected) if (!on.has(seat)) awayAt[seat] = now;
        return { ...x, connected: [...on], awayAt };
      });
    } else if (m.type === "notice" && m.kind === "rematch") {
      setS((x) => ({ ...x, rematch: m.lobby }));
    }
  }
  /** The socket dropped (`open` false): the clocks stop where they were, marked stale, and who is here is
   * unknown until the next frames; the server's first state after the reconnect starts them again. */
  function link(open) {
    if (open) return;
    const now = performance.now();
    setS((x) => ({ ...x, clock: freeze(x.clock, now), defaults: null }));
  }
  return { ...s, take, link };
}

/** Everything the seat components need, from match.js's own state (`linked`: the socket is open). */
/** Whether the latest state asks this seat to move: it has legal actions and, where the view names the seats
 * asked (`to_move`, what the clocks run on), is one of them. A seat may have a move nobody waits for (God's
 * Playground: taking back "I recruit no more"), which is no "your move": no status, tab title or cue. */
export function asksMe(game) {
  if (!game || !game.legal || !game.legal.length) return false;
  const asked = game.view && game.view.to_move;
  return !Array.isArray(asked) || asked.includes(game.seat);
}

export function seatsValue({ id, match, setMatch, game, seats, log, user, linked = true }) {
  const mySeat = game ? game.seat : null;
  const status = (game && game.status) || (match && match.status) || "active";
  const owners = (match && match.seats) || [];
  const human = (seat) => owners.some((x) => x.seat === seat && x.user);
  const control = seats.control || [];
  const resigned = (seat) => !!(control[seat] && control[seat].reason === "resigned");
  // Abort is allowed until a seat played by its user has acted; the server has the last word.
  const moved = (log || []).some((e) => e.seat != null && !PLATFORM_KINDS.has(e.kind) && human(e.seat) && !control[e.seat]);
  return {
    id, match, setMatch, user, mySeat, status, control, human, resigned,
    active: status === "active",
    clock: seats.clock,
    defaults: seats.defaults,
    // Who is here, as last heard; null (unknown) while this page's own connection is down.
    connected: linked ? seats.connected : null,
    stale: !linked,
    awayAt: seats.awayAt,
    rematchLobby: seats.rematch || (match && match.rematch_lobby_id) || null,
    myMove: status === "active" && asksMe(game),
    abortable: status === "active" && mySeat != null && !moved,
    // A seat in the bot's hands, or a human seat without a connection: the tags (seat_tags.js) may show.
    tagged: control.some(Boolean) || (status === "active" && linked && !!seats.connected && owners.some((x) => x.user && !seats.connected.includes(x.seat))),
    grace: match && match.absent_grace_s != null ? match.absent_grace_s * 1000 : 90000,
    name: (seat) => seatName(match, seat),
    // The strip is narrow on phones: a lobby bot is "Bot 2" there, its kind is in the players panel.
    short: (seat) => (owners.some((x) => x.seat === seat && !x.user && x.bot) ? t("match.seat.bot_short", { n: seat + 1 }) : seatName(match, seat)),
  };
}

/** What the players panel adds to a seat: its clock, who plays it, whether its player is away. */
export function SeatBadge({ seat }) {
  const ctx = useSeats();
  if (!ctx) return null;
  return html`<span class="seat-badge"><${ClockFace} r=${ctx.clock} seat=${seat} label=${ctx.name(seat)} />
    <${SeatTags} ctx=${ctx} seat=${seat} /></span>`;
}

/** The strip above the table: every seat with its clock (or how long it has been thinking), then the menu. */
export function SeatStrip({ children }) {
  const ctx = useSeats();
  const seats = ctx && ctx.match ? ctx.match.seats : [];
  const c = ctx && ctx.clock;
  // One shape with or without the seats (the match record may come after the first state): the menu and the
  // chat button keep their place in the tree, so a tap on ⋯ before the record arrives is not lost.
  return html`<div class="mbar" data-testid=${seats.length ? "match-bar" : undefined}>
    ${seats.length > 0 ? html`<ul class="mbar-seats" aria-label=${t("match.seat.strip")} tabindex="0">
      ${seats.map(({ seat }) => {
        const on = !!c && c.running.includes(seat);
        return html`<li class=${"mseat" + (on ? " on" : "") + (seat === ctx.mySeat ? " me" : "")} data-testid="strip-seat" data-seat=${seat}>
          <span class="mseat-name" title=${ctx.name(seat)}><${SeatDot} seat=${seat} /><span class="mseat-label">${ctx.short(seat)}</span></span>
          <span class="mseat-info"><${Here} ctx=${ctx} seat=${seat} />${isTimed(c) ? html`<${ClockFace} r=${c} seat=${seat} label=${ctx.name(seat)} />`
            : on ? html`<${Thinking} r=${c} seat=${seat} />` : null}
            <${SeatTags} ctx=${ctx} seat=${seat} /></span>
        </li>`;
      })}
    </ul>` : null}
    ${children}
  </div>`;
}

/** Whether a player is at the table: a dot for every seat a person owns, in every match (timed ones too),
 * filled while they have a connection, hollow when they are away, dashed while this page cannot tell. */
export function Here({ ctx, seat }) {
  if (!ctx.human(seat) || !ctx.active) return null;
  const known = ctx.connected != null;
  const on = known && (seat === ctx.mySeat || ctx.connected.includes(seat));
  const label = t(!known ? "table.presence_unknown" : on ? "table.online" : "table.offline");
  return html`<span class=${"presence" + (on ? " on" : known ? " off" : " unknown")} role="img" aria-label=${label} title=${label}
    data-testid="presence" data-seat=${seat} data-here=${!known ? "unknown" : on ? "yes" : "no"}></span>`;
}

/** In an untimed match, how long the running seat has been on its turn ("2 min"), once it is a while. */
function Thinking({ r, seat }) {
  const ms = useCountdown(() => turnMs(r, seat), true, () => false);
  if (ms == null) return html`<span class="mseat-turn">${t("match.seat.to_move")}</span>`;
  return html`<span class="mseat-turn">${ms < 60000 ? t("match.seat.to_move") : t("match.seat.thinking", { time: mmss(ms) })}</span>`;
}

/** The notices (seat_notices.js), loaded when one may first be due; then they stay mounted (and their errors). */
const Notices = lazyComponent(() => Promise.all([import("./seat_notices.js"), loadWords("match_menu"), loadCss("/app/match_menu.css")])
  .then(([m]) => m.SeatNotices), null);
export function SeatNotices() {
  const ctx = useSeats();
  const due = useRef(false);
  if (!ctx) return null;
  const me = ctx.mySeat;
  // A superset of what the notices show: my seat in the bot's hands, a step about to settle, another human
  // seat without a connection (seat_notices.js decides).
  const away = ctx.active && me != null && !!ctx.connected && !!ctx.match
    && ctx.match.seats.some((x) => x.seat !== me && ctx.human(x.seat) && !ctx.connected.includes(x.seat));
  if ((me != null && ctx.control[me]) || (ctx.defaults && ctx.myMove) || away) due.current = true;
  return due.current ? html`<${Notices} ctx=${ctx} />` : null;
}
