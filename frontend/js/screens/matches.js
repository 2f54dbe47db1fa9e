// My matches (resume or review) and public matches to watch.
import { html, useState } from "../lib.js";
import { list, num, t } from "../i18n.js";
import { Notice, Page, Spinner, botName, gameName } from "../ui.js";
import { Empty, PlayerLink, ago, listOf, useGames, usePolled } from "./common.js";

const seatLabel = (s) => (s.user ? s.user.username : t("matches.bot", { bot: botName(s.bot) }));

/** Who played (names link to their pages); once finished, each one's score and who won. */
function Players({ m }) {
  const result = m.status === "finished" ? m.result : null;
  const scores = result && Array.isArray(result.scores) ? result.scores : null;
  const seats = m.seats || [];
  const winners = seats.filter((s) => result && (result.winners || []).includes(s.seat));
  return html`${seats.map((s, i) => html`${i ? ", " : ""}<span class="match-player" data-seat=${s.seat}>${s.user ? html`<${PlayerLink} user=${s.user} />`
    : seatLabel(s)}${scores && scores[s.seat] != null ? html` <b class="score">${num(scores[s.seat])}</b>` : ""}</span>`)}${
    winners.length > 0 ? html`<span class="won-by" data-testid="won-by"> · ${t("matches.won_by", { names: list(winners.map(seatLabel)) })}</span>` : ""}`;
}

/** `action`: "resume" or "watch", what the row's button does. */
export function MatchList({ path, games, action, empty, poll = 0 }) {
  const { data, error } = usePolled(path, poll);
  if (error) return html`<${Notice}>${error}<//>`;
  if (!data) return html`<${Spinner} />`;
  const list = listOf(data);
  if (!list.length) return html`<${Empty}>${empty}<//>`;
  return html`<ul class="rows">${list.map((m) => html`<li class="row" key=${m.id} data-testid="match-row">
    <div class="row-main">
      <div class="row-title">${gameName(games, m.game)} <span class="muted">#${m.id}</span>${m.rated ? html` <span class="tag">${t("lobby.rated")}</span>` : ""}</div>
      <div class="row-sub"><${Players} m=${m} /> · ${m.status === "finished" ? t("matches.finished_at", { when: ago(m.finished_at) })
        : t("matches.move", { n: num(m.version), when: ago(m.updated_at) })}</div>
    </div>
    <div class="actions row-actions">
      ${m.status === "finished" && html`<a class="btn" href=${`/match/${m.id}/replay`} data-testid="replay-link"
        aria-label=${t("matches.replay_label", { game: gameName(games, m.game), id: m.id })}>${t("matches.replay")}</a>`}
      <a class="btn" href=${`/match/${m.id}`} aria-label=${t(`matches.${action}_label`, { game: gameName(games, m.game), id: m.id })}>${t(m.status === "finished" ? "matches.result" : `matches.${action}`)}</a>
    </div>
  </li>`)}</ul>`;
}

export function MatchesScreen({ user }) {
  const { games } = useGames();
  const tabs = user ? [["active", t("matches.active")], ["finished", t("matches.finished")], ["live", t("matches.live")]] : [["live", t("matches.live")]];
  const [tab, setTab] = useState(tabs[0][0]);
  const path = tab === "live" ? "/api/matches/live/" : `/api/matches/?status=${tab}`;
  return html`<${Page} title=${t("matches.title")}>
    <div class="tabs" role="tablist" aria-label=${t("matches.which")}>
      ${tabs.map(([id, label]) => html`<button type="button" role="tab" aria-selected=${tab === id} data-tab=${id}
        class=${"tab" + (tab === id ? " active" : "")} onClick=${() => setTab(id)}>${label}</button>`)}
    </div>
    <section class="panel" role="tabpanel">
      <${MatchList} key=${path} path=${path} games=${games} action=${tab === "live" ? "watch" : "resume"}
        empty=${t(tab === "live" ? "matches.nobody" : tab === "active" ? "matches.none_active" : "matches.none_finished")}
        poll=${tab === "live" ? 15000 : 0} />
    </section>
  <//>`;
}
