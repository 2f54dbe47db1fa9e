// Landing page: open lobbies (live), my matches in progress, matches to watch.
import { html, useState } from "../lib.js";
import { post } from "../api.js";
import { useLive } from "../live.js";
import { navigate } from "../router.js";
import { has, t } from "../i18n.js";
import { ConnectionBanner, GAMES_WITH_RULES, Notice, Page, Spinner, gameName, siteTitle } from "../ui.js";
import { Empty, ago, listOf, optionSummary, useGames, usePolled } from "./common.js";
import { MatchList } from "./matches.js";
import { gameInfo, inLanguage } from "../games/registry.js";
import { TimeControlTag } from "../match/time_control.js";

function LobbyRow({ lobby, games, user, onError }) {
  const game = (games || []).find((g) => g.id === lobby.game);
  const taken = lobby.seats.filter((s) => s.user || s.bot).length;
  const mine = user && lobby.seats.some((s) => s.user && s.user.id === user.id);
  const full = taken >= lobby.num_seats;
  async function join() {
    if (!user) { navigate(`/login?next=/lobby/${lobby.id}`); return; }
    try {
      if (!mine) await post(`/api/lobbies/${lobby.id}/join/`);
      navigate(`/lobby/${lobby.id}`);
    } catch (e) { onError(e.message); }
  }
  const summary = optionSummary(game, lobby.options);
  return html`<li class="row lobby-row" data-testid="lobby-row" data-lobby=${lobby.id}>
    <div class="row-main">
      <div class="row-title">${gameName(games, lobby.game)} <span class="muted">${t("lobby.hosted_by", { name: lobby.host.username })}</span> <${TimeControlTag} tc=${lobby.time_control} />${lobby.rated && html` <span class="tag" data-testid="rated-tag">${t("lobby.rated")}</span>`}</div>
      <div class="row-sub">
        <span class="seats-meter" role="img" aria-label=${t("lobby.seats_taken", { taken, count: lobby.num_seats })}>
          ${lobby.seats.map((s) => html`<span class=${"pip" + (s.user || s.bot ? " on" : "")}></span>`)}
        </span>
        ${taken}/${lobby.num_seats} · ${ago(lobby.created_at)}${summary ? " · " + summary : ""}
      </div>
    </div>
    <button class="btn btn-primary" type="button" onClick=${join} disabled=${full && !mine} data-testid="lobby-join"
      aria-label=${t(mine ? "home.open_label" : "home.join_label", { game: gameName(games, lobby.game), name: lobby.host.username })}>
      ${t(mine ? "home.open" : full ? "home.full" : "home.join")}</button>
  </li>`;
}

/** Lobbies I sit in (private ones too), so a host can get back to the room. */
function MyLobbies({ games }) {
  const { data } = usePolled("/api/lobbies/?mine=1", 20000);
  const list = listOf(data);
  if (!list.length) return null;
  return html`<section class="panel" aria-labelledby="my-lobbies"><h2 id="my-lobbies">${t("home.your_lobbies")}</h2>
    <ul class="rows">${list.map((l) => html`<li class="row" key=${l.id}>
      <div class="row-main"><div class="row-title">${gameName(games, l.game)} ${l.private && html`<span class="tag">${t("lobby.private")}</span>`} ${l.rated && html`<span class="tag">${t("lobby.rated")}</span>`}</div>
        <div class="row-sub">${t("lobby.seats_count", { taken: l.seats.filter((s) => s.user || s.bot).length, count: l.num_seats })} · ${t("lobby.hosted_by", { name: l.host.username })}</div></div>
      <a class="btn" href=${`/lobby/${l.id}${l.invite_code ? "?code=" + encodeURIComponent(l.invite_code) : ""}`}>${t("home.open")}</a>
    </li>`)}</ul></section>`;
}

/** Both games side by side: a line on each, how many play, the way to its rules and to a table. A visitor sees
 * them first; a signed-in player, below the lobbies and matches they came for. */
function Games({ games, user }) {
  return html`<section class="games-intro" aria-labelledby="games-title">
    <h2 id="games-title" class="visually-hidden">${t("home.games")}</h2>
    <ul class="game-cards">${GAMES_WITH_RULES.map((id) => {
      const g = (games || []).find((x) => x.id === id);
      const players = !g ? "" : g.min_players === g.max_players ? t("home.players_exact", { count: g.max_players })
        : t("home.players_range", { min: g.min_players, max: g.max_players });
      return html`<li class=${"card game-card game-card-" + id} data-testid="game-card" data-game=${id}>
        <h3>${gameName(games, id)}</h3>
        <p class="muted game-players">${players}</p>
        <p>${has(`home.pitch.${id}`) ? t(`home.pitch.${id}`) : inLanguage(gameInfo(id)?.pitch)}</p>
        <div class="actions">
          <a class="btn" href=${"/rules/" + id} aria-label=${t("home.how_to_play_label", { game: gameName(games, id) })}>${t("home.how_to_play")}</a>
          <a class="btn btn-ghost" href=${"/leaderboard/" + id} aria-label=${t("home.leaderboard_label", { game: gameName(games, id) })}>${t("home.leaderboard")}</a>
          ${user && html`<a class="btn btn-ghost" href="/lobbies/new">${t("new.title")}</a>`}
        </div>
      </li>`;
    })}</ul>
  </section>`;
}

export function HomeScreen({ user }) {
  const { games } = useGames();
  const [lobbies, setLobbies] = useState(null);
  const [error, setError] = useState("");
  const initial = usePolled("/api/lobbies/");
  const { status } = useLive("/ws/lobbies/", {
    onMessage: (m) => { if (m.type === "lobbies") setLobbies(m.lobbies); },
  });
  const list = lobbies || listOf(initial.data);
  const loading = !lobbies && !initial.data && !initial.error;

  return html`<${Page} title=${t("nav.play")} tab=${siteTitle(t("home.tab"))} wide
      actions=${user ? html`<a class="btn btn-primary" href="/lobbies/new" data-testid="create-lobby">${t("new.title")}</a>`
                     : html`<a class="btn btn-primary" href="/signup">${t("home.signup_to_play")}</a>`}>
    ${!user && html`<section class="hero card">
      <h2>${t("home.hero_title")}</h2>
      <p>${t("home.hero_text")}</p>
    </section>`}
    ${!user && html`<${Games} games=${games} user=${user} />`}
    <div class="columns">
      <section class="panel" aria-labelledby="open-lobbies">
        <div class="panel-head"><h2 id="open-lobbies" data-testid="open-lobbies">${t("home.open_lobbies")}</h2><${ConnectionBanner} status=${status} /></div>
        <${Notice} onClose=${() => setError("")}>${error || initial.error}<//>
        ${loading ? html`<${Spinner} />` : list.length === 0
          ? html`<${Empty}>${t(user ? "home.no_lobbies_start" : "home.no_lobbies")}<//>`
          : html`<ul class="rows" aria-live="polite">${list.map((l) => html`<${LobbyRow} key=${l.id} lobby=${l} games=${games} user=${user} onError=${setError} />`)}</ul>`}
      </section>
      <div class="stack">
        ${user && html`<${MyLobbies} games=${games} />`}
        ${user && html`<section class="panel" aria-labelledby="my-active">
          <h2 id="my-active">${t("home.in_progress")}</h2>
          <${MatchList} path="/api/matches/?status=active" games=${games} action="resume" empty=${t("home.none_in_progress")} />
        </section>`}
        <section class="panel" aria-labelledby="live">
          <h2 id="live">${t("matches.live")}</h2>
          <${MatchList} path="/api/matches/live/" games=${games} action="watch" empty=${t("matches.nobody")} poll=${15000} />
        </section>
      </div>
    </div>
    ${user && html`<${Games} games=${games} user=${user} />`}
  <//>`;
}
