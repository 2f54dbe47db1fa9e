// Rematch, on the result screen: open a lobby with the same setup, or join the one another player
// opened (the match socket's `notice`, or the match record's rematch_lobby_id). One tap either way.
// And a rated match's rating changes. Loaded when a finished match shows it (rematch.js decides when).
import { html, useEffect, useState } from "../lib.js";
import { get, post } from "../api.js";
import { navigate } from "../router.js";
import { list, t } from "../i18n.js";
import { useSeats } from "./seats.js";

// On every result card, for everyone (screens/replay.js).
const ReplayLink = ({ id }) => html`<a class="btn" href=${`/match/${id}/replay`} data-testid="replay-link">${t("matches.replay")}</a>`;

/** The rematch for a seated player, the replay for everyone. */
export function ResultLinks() {
  const ctx = useSeats();
  return html`${ctx.mySeat != null && ctx.user && html`<${RematchBox} />`}<${ReplayLink} id=${ctx.id} />`;
}

function RematchBox() {
  const ctx = useSeats();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const offered = ctx.rematchLobby;
  async function go() {
    setBusy(true);
    setError("");
    try {
      // The same call opens the lobby or answers the one already open; then take a seat in it if we have none.
      const lobby = await post(`/api/matches/${ctx.id}/rematch/`);
      const seated = lobby.seats.some((s) => s.user && s.user.id === ctx.user.id);
      if (!seated && lobby.status === "open") await post(`/api/lobbies/${lobby.id}/join/`);
      navigate(lobby.status === "started" && lobby.match_id != null ? `/match/${lobby.match_id}` : `/lobby/${lobby.id}`);
    } catch (e) {
      setError(e.message);
      setBusy(false);
    }
  }
  return html`<div class=${"rematch" + (offered ? " rematch-offer" : "")} data-testid="rematch-box">
    ${offered && html`<p class="rematch-text" role="status" data-testid="rematch-offer">${t("match.rematch.offered")}</p>`}
    <button type="button" class="btn btn-primary" data-testid="rematch" disabled=${busy} onClick=${go}>
      ${t(offered ? "match.rematch.join" : "match.rematch.open")}</button>
    ${error && html`<p class="seat-note seat-note-error" role="alert">${error}</p>`}
  </div>`;
}

// The server records a finish a moment after it (docs/ratings.md): ask again after these pauses until it has.
const RATING_RETRIES_MS = [400, 800, 1600, 3200, 6400];

/** `GET /api/matches/<id>/ratings/` once it is recorded, null until then (or if it never answers). */
function useRatings(id) {
  const [answer, setAnswer] = useState(null);
  useEffect(() => {
    let live = true;
    let timer = null;
    const ask = (n) => get(`/api/matches/${id}/ratings/`).then((r) => {
      if (!live) return;
      if (r.recorded) setAnswer(r);
      else if (n < RATING_RETRIES_MS.length) timer = setTimeout(() => ask(n + 1), RATING_RETRIES_MS[n]);
    }, () => {});
    ask(0);
    return () => { live = false; clearTimeout(timer); };
  }, [id]);
  return answer;
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");

/** Each player's rating after the match and its change, the viewer's first (rematch.js's RatingChanges). */
export function RatingChanges() {
  const ctx = useSeats();
  const r = useRatings(ctx.id);
  const rows = r ? r.seats.filter((x) => x.change != null) : [];
  if (!rows.length) return null;
  rows.sort((a, b) => (b.seat === ctx.mySeat) - (a.seat === ctx.mySeat) || a.place - b.place);
  return html`<div class="rating-changes" data-testid="rating-changes">
    <h3>${t("match.rating.title")}</h3>
    <ul>${rows.map((x) => html`<li class=${x.seat === ctx.mySeat ? "mine" : ""} data-testid="rating-change" data-seat=${x.seat}
        data-change=${x.change} aria-label=${t("match.rating.aria", { name: ctx.name(x.seat), after: x.rating_after, change: signed(x.change) })}>
      <span>${ctx.name(x.seat)}</span><span class="rating-after">${x.rating_after}</span>
      <strong class=${"rating-delta " + (x.change > 0 ? "up" : x.change < 0 ? "down" : "")}>${signed(x.change)}</strong></li>`)}</ul>
  </div>`;
}

/** The card of a match that ended by resignation (rematch.js). */
export function ResignationCard() {
  const ctx = useSeats();
  const r = ctx.match.result;
  const winners = r.winners || [];
  const headline = winners.includes(ctx.mySeat) ? t("table.you_win") : t("table.wins", { count: winners.length, names: list(winners.map(ctx.name)) });
  return html`<section class="result card result-resigned" data-testid="result" aria-labelledby="resign-result-title">
    <h2 id="resign-result-title">${headline}</h2>
    <p class="muted">${t("match.result.resigned", { names: list((r.resigned || []).map(ctx.name)) })}</p>
    ${ctx.match.rated && html`<${RatingChanges} />`}
    <div class="actions"><${RematchBox} /><a class="btn" href="/">${t("nav.back")}</a></div>
  </section>`;
}
