// A player's page (/u/<name>) and each game's leaderboard (/leaderboard/<game>): standings from the
// ratings app (docs/api.md, Players). Loaded on first use with its own words ("players") and styles, so
// no game page carries them: main.js awaits `ready()` before the first render.
import { html, useEffect, useState } from "../lib.js";
import { get } from "../api.js";
import { loadWords, num, t } from "../i18n.js";
import { loadCss } from "../lazy.js";
import { GAMES_WITH_RULES, NotFound, Notice, Page, Spinner, botName, gameName } from "../ui.js";
import { Empty, PlayerLink, ago, useGames } from "./common.js";

export const ready = () => Promise.all([loadWords("players"), loadCss("/app/players.css")]);

/** GET `path`: {data, error, missing} (missing: the server said 404). */
function useStanding(path) {
  const [state, setState] = useState({ data: null, error: "", missing: false });
  useEffect(() => {
    let live = true;
    setState({ data: null, error: "", missing: false });
    get(path)
      .then((data) => live && setState({ data, error: "", missing: false }))
      .catch((e) => live && setState({ data: null, error: e.message, missing: e.status === 404 }));
    return () => { live = false; };
  }, [path]);
  return state;
}

// ---- the rating chart: a line through the ratings after each rated match ----
const W = 320;
const H = 96;
const PAD = { left: 40, right: 8, top: 8, bottom: 8 };

/** `start`: the rating before the first match shown; `points`: the rating after each. An inline SVG, our own drawing. */
export function RatingChart({ start, points, label }) {
  const values = [start ?? points[0], ...points];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 20) { const mid = (hi + lo) / 2; lo = mid - 10; hi = mid + 10; }
  const x = (i) => PAD.left + (i * (W - PAD.left - PAD.right)) / Math.max(1, values.length - 1);
  const y = (v) => PAD.top + ((hi - v) * (H - PAD.top - PAD.bottom)) / (hi - lo);
  const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const last = values.length - 1;
  return html`<svg class="rating-chart" viewBox=${`0 0 ${W} ${H}`} role="img" aria-label=${label} data-testid="rating-chart">
    <line class="chart-grid" x1=${PAD.left} x2=${W - PAD.right} y1=${y(hi)} y2=${y(hi)} />
    <line class="chart-grid" x1=${PAD.left} x2=${W - PAD.right} y1=${y(lo)} y2=${y(lo)} />
    <text class="chart-axis" x=${PAD.left - 4} y=${y(hi) + 4} text-anchor="end">${Math.round(hi)}</text>
    <text class="chart-axis" x=${PAD.left - 4} y=${y(lo) + 4} text-anchor="end">${Math.round(lo)}</text>
    <polyline class="chart-line" points=${line} vector-effect="non-scaling-stroke" />
    <circle class="chart-dot" cx=${x(last)} cy=${y(values[last])} r="3.5" />
  </svg>`;
}

function GameStanding({ entry, games }) {
  const name = gameName(games, entry.game);
  const rated = entry.rating != null;
  const points = entry.history.map((h) => h.rating);
  return html`<li class="card standing" data-testid="standing" data-game=${entry.game}>
    <div class="standing-head">
      <h2>${name}</h2>
      ${rated && html`<a class="standing-rank" href=${`/leaderboard/${entry.game}`}
          aria-label=${t("profile.rank_label", { rank: entry.rank, game: name })}>${t("profile.rank", { rank: entry.rank })}</a>`}
    </div>
    <dl class="figures">
      <div><dt>${t("profile.rating")}</dt><dd data-testid="rating">${rated ? String(entry.rating) : "–"}</dd></div>
      <div><dt>${t("profile.played")}</dt><dd data-testid="played">${num(entry.played)}</dd></div>
      <div><dt>${t("profile.won")}</dt><dd data-testid="won">${num(entry.won)}</dd></div>
    </dl>
    ${rated && points.length > 0
      ? html`<${RatingChart} start=${entry.start} points=${points}
          label=${t("profile.chart_label", { game: name, count: points.length, first: entry.start ?? points[0], last: points[points.length - 1] })} />`
      : html`<p class="muted">${t("profile.unrated")}</p>`}
  </li>`;
}

function others(seats, mine) {
  return seats.filter((s) => s.seat !== mine).map((s, i) => html`${i ? ", " : ""}${s.user ? html`<${PlayerLink} user=${s.user} />`
    : t("profile.bot", { bot: botName(s.bot) })}`);
}

function RecentRow({ r, games }) {
  const delta = r.rated && r.rating_after != null ? r.rating_after - r.rating_before : null;
  const outcome = r.forfeit ? t("profile.forfeit") : r.won ? t("profile.won_it") : t("profile.place", { place: r.place, players: r.players });
  return html`<li class="row" data-testid="recent-match" data-match=${r.match}>
    <div class="row-main">
      <div class="row-title">${gameName(games, r.game)} <span class=${"outcome" + (r.won ? " outcome-won" : "")}>${outcome}</span>
        ${delta != null && html` <span class=${"delta " + (delta >= 0 ? "up" : "down")} title=${t("profile.rating_change", { before: r.rating_before, after: r.rating_after })}>${delta >= 0 ? "+" : "−"}${Math.abs(delta)}</span>`}
        ${r.unrated_reason && html` <span class="muted" data-testid="unrated-reason">${t(`profile.unrated_${r.unrated_reason}`)}</span>`}</div>
      <div class="row-sub">${t("profile.with")} ${others(r.seats, r.seat)} · ${ago(r.finished_at)}</div>
    </div>
    <a class="btn" href=${`/match/${r.match}`} aria-label=${t("profile.open_match_label", { game: gameName(games, r.game), id: r.match })}>${t("profile.open_match")}</a>
  </li>`;
}

export function ProfileScreen({ params, user }) {
  const name = decodeURIComponent(params[0]);
  const { games } = useGames();
  const { data, error, missing } = useStanding(`/api/players/${encodeURIComponent(name)}/`);
  if (missing) return html`<${NotFound} text=${error} />`;
  if (error) return html`<${Page} title=${name}><${Notice}>${error}<//><//>`;
  if (!data) return html`<${Page} title=${name}><${Spinner} /><//>`;
  const mine = user && user.id === data.user.id;
  return html`<${Page} title=${data.user.username} tab=${t("profile.tab", { name: data.user.username, site: t("site.name") })}>
    <p class="muted profile-since">${t("profile.joined", { when: new Date(data.joined).toLocaleDateString(document.documentElement.lang) })}
      ${mine && html` · <a href="/account">${t("nav.account")}</a>`}</p>
    ${data.games.length === 0 ? html`<${Empty}>${t("profile.no_games")}<//>`
      : html`<ul class="standings">${data.games.map((g) => html`<${GameStanding} key=${g.game} entry=${g} games=${games} />`)}</ul>`}
    <section class="panel" aria-labelledby="recent">
      <h2 id="recent">${t("profile.recent")}</h2>
      ${data.recent.length === 0 ? html`<${Empty}>${t("profile.no_games")}<//>`
        : html`<ul class="rows">${data.recent.map((r) => html`<${RecentRow} key=${r.match} r=${r} games=${games} />`)}</ul>`}
    </section>
    <p class="board-links">${GAMES_WITH_RULES.map((id) => html`<a class="btn btn-ghost" href=${`/leaderboard/${id}`}>${t("board.title", { game: gameName(games, id) })}</a>`)}</p>
  <//>`;
}

export function LeaderboardScreen({ params, query, user }) {
  const game = params[0] || GAMES_WITH_RULES[0];
  const page = Math.max(1, parseInt(query.get("page") || "1", 10) || 1);
  const { games } = useGames();
  const { data, error, missing } = useStanding(`/api/leaderboards/${encodeURIComponent(game)}/?page=${page}`);
  const name = gameName(games, game);
  const title = data ? t("board.title", { game: name }) : t("board.heading");
  if (missing) return html`<${NotFound} text=${error} />`;
  return html`<${Page} title=${title}>
    <nav class="tabs" aria-label=${t("board.games")}>
      ${GAMES_WITH_RULES.map((id) => html`<a class=${"tab" + (id === game ? " active" : "")} href=${`/leaderboard/${id}`}
        aria-current=${id === game ? "page" : undefined}>${gameName(games, id)}</a>`)}
    </nav>
    <${Notice}>${error}<//>
    ${!data ? !error && html`<${Spinner} />` : data.results.length === 0 ? html`<${Empty}>${t("board.empty")}<//>` : html`
      <section class="panel">
        <table class="board" data-testid="leaderboard">
          <thead><tr><th scope="col">${t("board.rank")}</th><th scope="col">${t("board.player")}</th>
            <th scope="col" class="num">${t("board.rating")}</th><th scope="col" class="num">${t("board.matches")}</th></tr></thead>
          <tbody>${data.results.map((r) => html`<tr key=${r.user.id} class=${user && user.id === r.user.id ? "me" : ""} data-testid="board-row">
            <td>${r.rank}</td><td class="board-who"><${PlayerLink} user=${r.user} /></td>
            <td class="num">${r.rating}</td>
            <td class="num" title=${t("board.wins_title", { wins: r.wins, count: r.matches })}>${num(r.matches)}</td>
          </tr>`)}</tbody>
        </table>
        ${data.pages > 1 && html`<div class="pager">
          ${page > 1 ? html`<a class="btn" href=${`/leaderboard/${game}?page=${page - 1}`}>${t("board.prev")}</a>` : html`<span></span>`}
          <span class="muted">${t("board.page", { page, pages: data.pages })}</span>
          ${page < data.pages ? html`<a class="btn" href=${`/leaderboard/${game}?page=${page + 1}`}>${t("board.next")}</a>` : html`<span></span>`}
        </div>`}
      </section>`}
    <p class="muted board-note">${t("board.note")}</p>
  <//>`;
}
