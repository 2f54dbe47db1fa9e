// A match: the live socket, the log, errors, and the game's table.
import { html, useEffect, useMemo, useRef, useState } from "../lib.js";
import { answer, get } from "../api.js";
import { useLive } from "../live.js";
import { has, t } from "../i18n.js";
import { ConnectionBanner, NotFound, Notice, Page, Spinner, gameName, siteTitle } from "../ui.js";
import { useMatchLog } from "./match_log.js";
import { preloadTable, tableFor } from "../games/tables.js";
import { gameInfo } from "../games/registry.js";
import { SeatNotices, SeatStrip, SeatsContext, asksMe, seatsValue, useMatchSeats } from "../match/seats.js";
import { useCueSettings, useMoveCues } from "../match/cues.js";
import { MatchMenu } from "../match/menu.js";
import { ResignationResult } from "../match/rematch.js";
import { useHoldWhileFocused } from "../match/hold.js";
import { StateFrames } from "../match/patch.js";
import { ChatButton, useChatFrames } from "../chat_button.js";

// early.js asked for this page's match record: the game it names starts downloading its table at once.
let early = null;
if (window.__earlyMatch) {
  early = { id: window.__earlyMatch.id, record: answer(window.__earlyMatch.answer) };
  window.__earlyMatch = null;
  early.record.then((m) => preloadTable(m && m.game), () => {});
}

/** The match record: the early request if it was for this match and is still unused, else a new one. */
function fetchRecord(id) {
  const mine = early && early.id === String(id) ? early.record : null;
  early = null;
  return mine || get(`/api/matches/${id}/`);
}

function uuid() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

/** The server's games list, fetched only for a game the words do not name (never for the two here). */
function useGameList(gameId) {
  const [games, setGames] = useState(null);
  const needed = !!gameId && !has(`game.${gameId}`) && !gameInfo(gameId);
  useEffect(() => { if (needed && !games) get("/api/games/").then(setGames, () => {}); }, [needed]);
  return games;
}

export function MatchScreen({ params, user }) {
  const id = params[0];
  const [match, setMatch] = useState(null);
  const [loadError, setLoadError] = useState("");
  const [missing, setMissing] = useState(false); // no such match: the socket stays shut, the page says so
  const [game, setGame] = useState(null); // {version, seat, view, legal, status}
  const matchLog = useMatchLog(id); // the REST history, then what the socket adds (match_log.js)
  const log = matchLog.log;
  const [presence, setPresence] = useState(null);
  const [rejection, setRejection] = useState("");
  const [pending, setPending] = useState(null);
  const statusRef = useRef(null); // the match status the socket last reported
  const seats = useMatchSeats(); // clocks, who plays each seat, absences, a rematch offer (js/match/)
  const cues = useCueSettings();
  const chat = useChatFrames(user); // the chat's code loads on first use (chat_button.js)

  // The record names the game, usually before the socket's first state: its table starts downloading then.
  const loadMeta = () => fetchRecord(id).then((m) => { preloadTable(m && m.game); setMatch(m); })
    .catch((e) => { setMissing(e.status === 404); setLoadError(e.message); });
  useEffect(() => { loadMeta(); }, [id]);

  const frames = useMemo(() => new StateFrames(), [id]); // difference frames into whole states (match/patch.js)
  const live = useLive(missing ? null : window.__matchSocketPath(id), { // its address: early.js
    ping: { type: "ping" }, // a silence: make sure the connection still carries (live.js)
    onOpen: (again, sock) => {
      matchLog.connected(); // its first state says which part of the log to fetch
      // The server sends the position on connect; after a drop we also ask explicitly (sync) so nothing missed is assumed.
      if (again) sock.send({ type: "sync" });
      sock.send({ type: "chat_history" }); // the chat's lines so far (docs/api.md, Chat)
      if (again) loadMeta();
    },
    onMessage: (frame) => {
      const m = frame.type === "state" || frame.type === "patch" ? frames.take(frame) : frame;
      if (!m) { live.send({ type: "sync" }); return; } // a patch for a state not held: the whole state, please
      if (chat.take(m)) return;
      seats.take(m);
      if (m.type === "state") {
        if (m.view) preloadTable(m.view.game);
        setGame({ version: m.version, seat: m.seat, view: m.view, legal: m.legal_actions || [], status: m.status });
        matchLog.state(m);
        setPending(null);
        // Every game ends the same way for the server ("finished", or "aborted"): the match record then holds the result.
        if (m.status && m.status !== "active" && m.status !== statusRef.current && !(match && match.status === m.status)) {
          loadMeta();
          if (statusRef.current === "active") live.send({ type: "chat_history" }); // the spectators' words open to all
        }
        statusRef.current = m.status || statusRef.current;
      } else if (m.type === "presence") {
        setPresence(m);
      } else if (m.type === "error") {
        if (holdAnswer(m)) return;
        setPending(null);
        if (m.code === "stale_version") { live.send({ type: "sync" }); setRejection(t("match.stale")); }
        else setRejection(m.message || t("match.refused"));
      }
    },
  });

  // The socket dropped: clocks stop, marked stale, until the next state (seats.js).
  useEffect(() => seats.link(live.status === "open"), [live.status === "open"]);

  const holdAnswer = useHoldWhileFocused(live, game, seats.defaults, uuid);

  const gameId = (match && match.game) || (game && game.view && game.view.game);
  const games = useGameList(gameId);
  const Table = tableFor(gameId);
  const title = t("match.title", { game: gameId ? gameName(games, gameId) : t("match.match"), id });
  // Whose move it is comes from one place, the latest state: a match that ended (finished, or aborted while
  // the game state still names a seat) offers nobody anything, so the status line, the tags, the dock, the tab
  // title and the cues all change in the frame that state arrives in.
  const status = (game && game.status) || "active";
  const legal = game && status === "active" ? game.legal : [];
  const myMove = status === "active" && asksMe(game);
  const watching = game ? game.seat == null : !!(match && !match.seats.some((s) => s.user && user && s.user.id === user.id));
  const tab = `${myMove ? t("match.tab_move") + " · " : ""}${watching ? t("match.tab_watching") + " · " : ""}${gameId ? t("match.tab", { game: gameName(games, gameId), id }) : siteTitle(t("match.title", { game: t("match.match"), id }))}`;

  // Unknown (null) until the first position: opening a page on one's own move cues nothing.
  useMoveCues(game ? myMove : null, cues, title);

  function send(action) {
    if (!game || pending) return;
    setRejection("");
    const msg = { type: "action", version: game.version, id: uuid(), action };
    if (live.send(msg)) setPending(msg.id);
    else setRejection(t("match.not_sent"));
  }

  if (missing || live.socket.current?.closeCode === 4404) return html`<${NotFound} text=${t("notfound.match", { id })} />`;
  // The socket is the authority; the REST record only adds names, so its failure alone does not block the table.
  if (loadError && !game && live.status === "closed") {
    return html`<${Page} title=${t("match.match")} tab=${siteTitle(t("match.title", { game: t("match.match"), id }))}>
      <${Notice}>${rejection || loadError}<//><p><a href="/">${t("nav.back")}</a></p><//>`;
  }
  const meta = match || { id, game: gameId, seats: [] };
  return html`<${SeatsContext.Provider} value=${seatsValue({ id, match, setMatch, game, seats, log, user, linked: live.status === "open" })}><${Page} tab=${tab} wide>
    <h1 class="visually-hidden">${title}</h1>
    <${ConnectionBanner} status=${live.status} />
    ${(game ? status : match && match.status) === "aborted" && html`<${Notice} kind="info">${t("match.aborted")}<//>`}
    ${live.status === "closed" && !game && html`<${Notice}>${rejection || t("match.cannot_watch")}<//>`}
    ${game && html`<${SeatStrip}><${ChatButton} chat=${chat} send=${live.send} me=${user}
      writes=${user ? (game.seat != null ? "table" : "spectators") : null} /><${MatchMenu} cues=${cues} /><//><${SeatNotices} /><${ResignationResult} />`}
    ${!game ? html`<${Spinner} label=${t("match.setting_up")} />`
      : html`<${Table} match=${meta} view=${game.view} legal=${legal} status=${status} seat=${game.seat} version=${game.version}
          send=${send} pending=${!!pending} rejection=${rejection} clearRejection=${() => setRejection("")}
          log=${log} presence=${live.status === "open" ? presence : null} user=${user} connected=${live.status === "open"} />`}
  <//><//>`;
}
