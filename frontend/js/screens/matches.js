// My matches (resume or review) and public matches to watch.
import { html, useState } from "../lib.js";
import { Empty, Notice, Page, Spinner, ago, gameName } from "../ui.js";
import { listOf, useGames, usePolled } from "./common.js";

function players(m) {
  return (m.seats || []).map((s) => (s.user ? s.user.username : `bot (${s.bot})`)).join(", ");
}

export function MatchList({ path, games, action, empty, poll = 0 }) {
  const { data, error } = usePolled(path, poll);
  if (error) return html`<${Notice}>${error}<//>`;
  if (!data) return html`<${Spinner} />`;
  const list = listOf(data);
  if (!list.length) return html`<${Empty}>${empty}<//>`;
  return html`<ul class="rows">${list.map((m) => html`<li class="row" key=${m.id} data-testid="match-row">
    <div class="row-main">
      <div class="row-title">${gameName(games, m.game)} <span class="muted">#${m.id}</span></div>
      <div class="row-sub">${players(m)} · ${m.status === "finished" ? "finished " + ago(m.finished_at) : "move " + m.version + " · " + ago(m.updated_at)}</div>
    </div>
    <a class="btn" href=${`/match/${m.id}`} aria-label=${`${action} ${gameName(games, m.game)} match ${m.id}`}>${m.status === "finished" ? "Result" : action}</a>
  </li>`)}</ul>`;
}

export function MatchesScreen({ user }) {
  const { games } = useGames();
  const tabs = user ? [["active", "In progress"], ["finished", "Finished"], ["live", "Watch live"]] : [["live", "Watch live"]];
  const [tab, setTab] = useState(tabs[0][0]);
  const path = tab === "live" ? "/api/matches/live/" : `/api/matches/?status=${tab}`;
  return html`<${Page} title="Matches">
    <div class="tabs" role="tablist" aria-label="Which matches">
      ${tabs.map(([id, label]) => html`<button type="button" role="tab" aria-selected=${tab === id}
        class=${"tab" + (tab === id ? " active" : "")} onClick=${() => setTab(id)}>${label}</button>`)}
    </div>
    <section class="panel" role="tabpanel">
      <${MatchList} key=${path} path=${path} games=${games} action=${tab === "live" ? "Watch" : "Resume"}
        empty=${tab === "live" ? "Nobody is playing right now." : tab === "active" ? "No game in progress." : "No finished games yet."}
        poll=${tab === "live" ? 15000 : 0} />
    </section>
  <//>`;
}
