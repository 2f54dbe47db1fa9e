// The result card of a finished game: who won and why, the scores, the rematch. Loaded when the game is
// over (parts.js's Result).
import { html } from "../../lib.js";
import { list, t } from "../../i18n.js";
import { SeatDot } from "../../ui.js";
import { RatingChanges, RematchButton } from "../../match/rematch.js";

const REASONS = { "victory": "cd.why.victory", "most regions": "cd.why.regions", "most points": "cd.why.points", "final battle": "cd.why.final", "resignation": "match.result.resignation" };

function reasonText(reason, view) {
  const goal = view.targets || {};
  return REASONS[reason] ? t(REASONS[reason], { total: goal.total, adjacent: goal.adjacent }) : reason;
}

export function Result({ view, names, match }) {
  const r = view.result || (match && match.result);
  if (!r) return null;
  const winners = r.winners || [];
  const me = view.seat;
  const headline = winners.length === 0 ? t("table.no_winner")
    : winners.includes(me) ? t(winners.length > 1 ? "table.you_share" : "table.you_win")
      : t("table.wins", { count: winners.length, names: list(winners.map(names)) });
  const order = view.players.map((p) => p.seat).sort((a, b) => (r.scores[b] ?? 0) - (r.scores[a] ?? 0));
  return html`<section class="result card" data-testid="result" aria-labelledby="result-title">
    <h2 id="result-title">${headline}</h2>
    ${r.reason && html`<p class="muted">${reasonText(r.reason, view)}</p>`}
    <ol class="scores">${order.map((s) => html`<li class=${winners.includes(s) ? "winner" : ""}>
      <${SeatDot} seat=${s} /><span>${names(s)}</span><strong>${r.scores[s]}</strong>
      <span class="muted">${t(view.options && view.options.points ? "cd.score_points" : "cd.score_regions", { count: r.scores[s] })}</span></li>`)}</ol>
    <${RatingChanges} />
    <div class="actions"><${RematchButton} /><a class="btn btn-primary" href="/">${t("nav.back")}</a><a class="btn" href="/matches">${t("table.my_matches")}</a></div>
  </section>`;
}
