// A lobby room: seats, bots, kick, invite link, start. Live over /ws/lobbies/<id>/.
import { html, useEffect, useState } from "../lib.js";
import { del, get, post } from "../api.js";
import { useLive } from "../live.js";
import { navigate } from "../router.js";
import { t } from "../i18n.js";
import { ConnectionBanner, NotFound, Notice, Page, SeatDot, Spinner, botName, gameName } from "../ui.js";
import { PlayerLink, optionSummary, useGames } from "./common.js";
import { preloadTable } from "../games/tables.js";
import { ClockIcon, timeControlText } from "../match/time_control.js";
import { ChatButton, useChatFrames } from "../chat_button.js";

// The bot levels a host may seat (the API also knows "random" and the old name "heuristic").
const BOT_LEVELS = ["beginner", "advanced", "master"];

export function LobbyRoomScreen({ params, query, user }) {
  const id = params[0];
  const code = query.get("code") || "";
  const qs = code ? `?code=${encodeURIComponent(code)}` : "";
  const { games } = useGames();
  const [lobby, setLobby] = useState(null);
  const [error, setError] = useState("");
  const [loadError, setLoadError] = useState("");
  const [gone, setGone] = useState(false); // no such lobby (or a private one without its code)
  const [bot, setBot] = useState("advanced"); // the level a new bot seat gets
  const [copied, setCopied] = useState(false);
  const [refused, setRefused] = useState(false); // the room stopped sending news (e.g. kicked from a private lobby)
  const chat = useChatFrames(user); // chat frames and refusals of chat messages (their id) go to the chat
  const [ratedAsked, setRatedAsked] = useState(null); // the host's choice until the server answers

  useEffect(() => {
    get(`/api/lobbies/${id}/${qs}`).then(setLobby).catch((e) => { setGone(e.status === 404); setLoadError(e.message); });
  }, [id]);
  const { status, send } = useLive(gone ? null : `/ws/lobbies/${id}/${qs}`, {
    onMessage: (m) => {
      if (chat.take(m)) return;
      if (m.type === "lobby") setLobby(m.lobby);
      else if (m.type === "error") { setRefused(true); setError(m.message); }
    },
    onOpen: (again, sock) => {
      sock.send({ type: "chat_history" });
      if (again) get(`/api/lobbies/${id}/${qs}`).then(setLobby).catch(() => {});
    },
  });
  useEffect(() => {
    if (lobby && lobby.status === "started" && lobby.match_id != null) navigate(`/match/${lobby.match_id}`, { replace: true });
  }, [lobby && lobby.status, lobby && lobby.match_id]);
  // A seated player opens the match soon: its table downloads while the room fills.
  const seated = !!(lobby && user && lobby.seats.some((s) => s.user && s.user.id === user.id));
  useEffect(() => { if (seated) preloadTable(lobby.game); }, [seated, lobby && lobby.game]);

  async function act(promise) {
    setError("");
    try { const l = await promise; if (l && l.seats) setLobby(l); return l; } catch (e) { setError(e.message); return null; }
  }

  if (gone) return html`<${NotFound} text=${t("notfound.lobby", { id })} />`;
  if (loadError) return html`<${Page} title=${t("lobby.title")}><${Notice}>${loadError}<//><p><a href="/">${t("nav.back")}</a></p><//>`;
  if (!lobby) return html`<${Page} title=${t("lobby.title")}><${Spinner} /><//>`;

  const game = (games || []).find((g) => g.id === lobby.game);
  const isHost = user && lobby.host.id === user.id;
  const mySeat = user && lobby.seats.find((s) => s.user && s.user.id === user.id);
  const filled = lobby.seats.filter((s) => s.user || s.bot).length;
  const full = filled === lobby.num_seats;
  const levels = BOT_LEVELS.filter((b) => !game || game.bots.includes(b));
  const invite = lobby.invite_code ? `${location.origin}/lobby/${lobby.id}?code=${encodeURIComponent(lobby.invite_code)}` : "";

  async function start() {
    const r = await act(post(`/api/lobbies/${lobby.id}/start/`));
    if (r && r.match_id != null) navigate(`/match/${r.match_id}`);
  }
  async function leave() {
    if (await act(post(`/api/lobbies/${lobby.id}/leave/`))) navigate("/");
  }
  async function copy() {
    try { await navigator.clipboard.writeText(invite); setCopied(true); setTimeout(() => setCopied(false), 2000); } catch { setCopied(false); }
  }

  const name = gameName(games, lobby.game);
  const summary = optionSummary(game, lobby.options);
  const missing = lobby.num_seats - filled;
  return html`<${Page} title=${t("lobby.heading", { game: name })} tab=${t("lobby.tab", { game: name, id: lobby.id })}>
    ${!refused && html`<${ConnectionBanner} status=${status} />`}
    <section class="card lobby-room" data-testid="lobby-room" data-lobby=${lobby.id}>
      <p class="muted">${t("lobby.hosted_by", { name: lobby.host.username })} · ${t(lobby.private ? "lobby.private" : "lobby.public")}${lobby.rated ? " · " + t("lobby.rated") : ""} · ${t("lobby.seats_count", { taken: filled, count: lobby.num_seats })}${summary ? " · " + summary : ""}</p>
      <p class="lobby-clock" data-testid="time-control"><${ClockIcon} /> ${timeControlText(lobby.time_control)}</p>
      ${!refused && html`<p class="lobby-chat"><${ChatButton} chat=${chat} text send=${send} me=${user} writes=${user ? "lobby" : null}
        host=${!!isHost} /></p>`}
      ${lobby.status === "closed" && html`<${Notice} kind="info">${t("lobby.closed")}<//>`}
      ${lobby.status === "expired" && html`<${Notice} kind="info">${t("lobby.expired")}<//>`}
      <ol class="seats" aria-label=${t("new.seats")}>
        ${lobby.seats.map((s) => html`<li class=${"seat" + (s.user || s.bot ? " taken" : "")} data-testid="seat">
          <${SeatDot} seat=${s.index} />
          <span class="seat-name">
            ${s.user ? html`<${PlayerLink} user=${s.user} />${s.user.id === lobby.host.id ? html` <span class="tag">${t("lobby.host")}</span>` : ""}${user && s.user.id === user.id ? html` <span class="tag tag-you">${t("ui.you")}</span>` : ""}`
              : s.bot ? html`${t("lobby.bot")} <span class="tag">${botName(s.bot)}</span>` : html`<span class="muted">${t("lobby.open_seat")}</span>`}
          </span>
          ${isHost && s.bot && html`<button type="button" class="btn btn-small" aria-label=${t("lobby.remove_label", { n: s.index + 1 })}
              data-testid="remove-bot" data-seat=${s.index} onClick=${() => act(del(`/api/lobbies/${lobby.id}/bots/${s.index}/`))}>${t("lobby.remove")}</button>`}
          ${isHost && s.user && s.user.id !== user.id && html`<button type="button" class="btn btn-small btn-danger" data-testid="kick"
              aria-label=${t("lobby.kick_label", { name: s.user.username })} onClick=${() => act(post(`/api/lobbies/${lobby.id}/kick/`, { user_id: s.user.id }))}>${t("lobby.kick")}</button>`}
        </li>`)}
      </ol>
      ${isHost && !full && lobby.status === "open" && html`<div class="bot-add">
        <fieldset class="bot-levels"><legend>${t("lobby.bot_level")}</legend><div class="tc-options">
          ${levels.map((b) => html`<label class=${"tc-choice" + (bot === b ? " on" : "")} data-testid="bot-level" data-level=${b}>
            <input type="radio" name="bot-level" value=${b} checked=${bot === b} onChange=${() => setBot(b)} />
            <span class="tc-name">${botName(b)}</span><span class="muted">${t(`lobby.level_${b}`)}</span></label>`)}
        </div></fieldset>
        <button type="button" class="btn" data-testid="add-bot" onClick=${() => act(post(`/api/lobbies/${lobby.id}/bots/`, { bot }))}>${t("lobby.add_bot")}</button>
      </div>`}
      ${isHost && lobby.status === "open" && html`<div class="field field-check"><label><input type="checkbox" checked=${ratedAsked ?? lobby.rated}
        data-testid="rated" onChange=${(e) => { setRatedAsked(e.target.checked);
          act(post(`/api/lobbies/${lobby.id}/rated/`, { rated: e.target.checked })).finally(() => setRatedAsked(null)); }} />
        <span>${t("lobby.rated_choice")}</span></label></div>`}
      ${invite && html`<div class="invite"><label class="field"><span>${t("lobby.invite")}</span>
        <input readonly value=${invite} data-testid="invite-link" onFocus=${(e) => e.target.select()} /></label>
        <button type="button" class="btn" onClick=${copy}>${t(copied ? "lobby.copied" : "lobby.copy")}</button></div>`}
      ${!isHost && lobby.status === "open" && html`<p class="waiting" role="status"><span class="spinner-dot" aria-hidden="true"></span>
        ${full ? t("lobby.waiting_host", { name: lobby.host.username }) : t("lobby.waiting_players", { count: missing })}</p>`}
      <${Notice} onClose=${() => setError("")}>${error}<//>
      <div class="actions">
        ${!mySeat && lobby.status === "open" && !full && html`<button type="button" class="btn btn-primary" data-testid="join"
          onClick=${() => act(post(`/api/lobbies/${lobby.id}/join/`, code ? { code } : {}))}>${t("lobby.take_seat")}</button>`}
        ${isHost && lobby.status === "open" && html`<button type="button" class="btn btn-primary" data-testid="start" disabled=${!full}
          onClick=${start}>${full ? t("lobby.start") : t("lobby.waiting_more", { count: missing })}</button>`}
        ${mySeat && lobby.status === "open" && html`<button type="button" class="btn btn-ghost" data-testid="leave" onClick=${leave}>${t(isHost ? "lobby.close" : "lobby.leave")}</button>`}
      </div>
    </section>
  <//>`;
}
