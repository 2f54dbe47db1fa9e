// A lobby room: seats, bots, kick, invite link, start. Live over /ws/lobbies/<id>/.
import { html, useEffect, useState } from "../lib.js";
import { del, get, post } from "../api.js";
import { useLive } from "../live.js";
import { navigate } from "../router.js";
import { ConnectionBanner, Notice, Page, SeatDot, Spinner, gameName } from "../ui.js";
import { optionSummary, useGames } from "./common.js";
import { preloadTable } from "../games/tables.js";

export function LobbyRoomScreen({ params, query, user }) {
  const id = params[0];
  const code = query.get("code") || "";
  const qs = code ? `?code=${encodeURIComponent(code)}` : "";
  const { games } = useGames();
  const [lobby, setLobby] = useState(null);
  const [error, setError] = useState("");
  const [loadError, setLoadError] = useState("");
  const [bot, setBot] = useState("heuristic");
  const [copied, setCopied] = useState(false);
  const [refused, setRefused] = useState(false); // the room stopped sending news (e.g. kicked from a private lobby)

  useEffect(() => { get(`/api/lobbies/${id}/${qs}`).then(setLobby).catch((e) => setLoadError(e.message)); }, [id]);
  const { status } = useLive(`/ws/lobbies/${id}/${qs}`, {
    onMessage: (m) => {
      if (m.type === "lobby") setLobby(m.lobby);
      else if (m.type === "error") { setRefused(true); setError(m.message); }
    },
    onOpen: (again) => { if (again) get(`/api/lobbies/${id}/${qs}`).then(setLobby).catch(() => {}); },
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

  if (loadError) return html`<${Page} title="Lobby"><${Notice}>${loadError}<//><p><a href="/">Back to the lobbies</a></p><//>`;
  if (!lobby) return html`<${Page} title="Lobby"><${Spinner} /><//>`;

  const game = (games || []).find((g) => g.id === lobby.game);
  const isHost = user && lobby.host.id === user.id;
  const mySeat = user && lobby.seats.find((s) => s.user && s.user.id === user.id);
  const filled = lobby.seats.filter((s) => s.user || s.bot).length;
  const full = filled === lobby.num_seats;
  const bots = (game && game.bots) || ["random", "heuristic"];
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

  return html`<${Page} title=${`${gameName(games, lobby.game)} lobby`} tab=${`${gameName(games, lobby.game)} · lobby #${lobby.id}`}>
    ${!refused && html`<${ConnectionBanner} status=${status} />`}
    <section class="card lobby-room" data-testid="lobby-room" data-lobby=${lobby.id}>
      <p class="muted">Hosted by <strong>${lobby.host.username}</strong> · ${lobby.private ? "private" : "public"} · ${filled}/${lobby.num_seats} seats${optionSummary(game, lobby.options) ? " · " + optionSummary(game, lobby.options) : ""}</p>
      ${lobby.status === "closed" && html`<${Notice} kind="info">This lobby was closed by its host.<//>`}
      ${lobby.status === "expired" && html`<${Notice} kind="info">This lobby expired: nobody joined, left or changed it for a long while. Create a new one to play.<//>`}
      <ol class="seats" aria-label="Seats">
        ${lobby.seats.map((s) => html`<li class=${"seat" + (s.user || s.bot ? " taken" : "")} data-testid="seat">
          <${SeatDot} seat=${s.index} />
          <span class="seat-name">
            ${s.user ? html`${s.user.username}${s.user.id === lobby.host.id ? html` <span class="tag">host</span>` : ""}${user && s.user.id === user.id ? html` <span class="tag tag-you">you</span>` : ""}`
              : s.bot ? html`Bot <span class="tag">${s.bot}</span>` : html`<span class="muted">Open seat</span>`}
          </span>
          ${isHost && s.bot && html`<button type="button" class="btn btn-small" aria-label=${`Remove the bot from seat ${s.index + 1}`}
              onClick=${() => act(del(`/api/lobbies/${lobby.id}/bots/${s.index}/`))}>Remove</button>`}
          ${isHost && s.user && s.user.id !== user.id && html`<button type="button" class="btn btn-small btn-danger"
              aria-label=${`Kick ${s.user.username}`} onClick=${() => act(post(`/api/lobbies/${lobby.id}/kick/`, { user_id: s.user.id }))}>Kick</button>`}
        </li>`)}
      </ol>
      ${isHost && !full && lobby.status === "open" && html`<div class="bot-add">
        <label class="field field-inline"><span>Bot</span>
          <select value=${bot} onChange=${(e) => setBot(e.target.value)} aria-label="Bot kind">
            ${bots.map((b) => html`<option value=${b}>${b}</option>`)}</select></label>
        <button type="button" class="btn" data-testid="add-bot" onClick=${() => act(post(`/api/lobbies/${lobby.id}/bots/`, { bot }))}>Add a bot</button>
      </div>`}
      ${invite && html`<div class="invite"><label class="field"><span>Invite link</span>
        <input readonly value=${invite} data-testid="invite-link" onFocus=${(e) => e.target.select()} /></label>
        <button type="button" class="btn" onClick=${copy}>${copied ? "Copied" : "Copy"}</button></div>`}
      ${!isHost && lobby.status === "open" && html`<p class="waiting" role="status"><span class="spinner-dot" aria-hidden="true"></span>
        ${full ? `Waiting for ${lobby.host.username} to start the game…` : `Waiting for ${lobby.num_seats - filled} more player${lobby.num_seats - filled > 1 ? "s" : ""}…`}</p>`}
      <${Notice} onClose=${() => setError("")}>${error}<//>
      <div class="actions">
        ${!mySeat && lobby.status === "open" && !full && html`<button type="button" class="btn btn-primary" data-testid="join"
          onClick=${() => act(post(`/api/lobbies/${lobby.id}/join/`, code ? { code } : {}))}>Take a seat</button>`}
        ${isHost && lobby.status === "open" && html`<button type="button" class="btn btn-primary" data-testid="start" disabled=${!full}
          onClick=${start}>${full ? "Start the game" : `Waiting for ${lobby.num_seats - filled} more`}</button>`}
        ${mySeat && lobby.status === "open" && html`<button type="button" class="btn btn-ghost" onClick=${leave}>${isHost ? "Close lobby" : "Leave"}</button>`}
      </div>
    </section>
  <//>`;
}
