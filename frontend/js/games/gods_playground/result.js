// The result card of a finished game: the ranking (the engine's, tie-breaks included), each family's
// points, the rematch. Loaded when the game is over (parts.js's Result).
import { html } from "../../lib.js";
import { t } from "../../i18n.js";
import { FamilyMark } from "./family_mark.js";
import { RatingChanges, RematchButton } from "../../match/rematch.js";

export function Result({ view, names, match, log }) {
  if (!view.over) return null;
  // The engine's ranking (tie-breaks included) comes with the game-over event or the match record; never recomputed here.
  // (Events stored before events were data carried the ranking beside their text.)
  const over = [...log].reverse().map((e) => (e.kind === "game_over" ? (e.params || e).ranking : null)).find(Array.isArray);
  const ranking = (match && match.result && match.result.ranking) || over || null;
  const order = ranking || [0, 1, 2];
  const winner = ranking ? ranking[0] : null;
  const headline = winner == null ? t("gp.r.final") : winner === view.you ? t("table.you_win") : t("table.wins", { count: 1, names: names(winner) });
  const estates = view.final_estate_vp;
  return html`<section class="result card" data-testid="result" aria-labelledby="result-title">
    <h2 id="result-title">${headline}</h2>
    <p class="muted">${t("gp.r.ties")}</p>
    <ol class="scores">${order.map((s) => html`<li class=${s === winner ? "winner" : ""}>
      <${FamilyMark} seat=${s} size=${22} /><span class="gp-score-who">${names(s)}<small class="muted">${estates ? t("gp.r.estates", { n: estates[s] }) + " · " : ""}${t("gp.r.money", { count: view.money[s] })}</small></span>
      <strong data-testid="final-vp">${view.vp[s]} ${t("gp.vp")}</strong></li>`)}</ol>
    <${RatingChanges} />
    <div class="actions"><${RematchButton} /><a class="btn btn-primary" href="/">${t("nav.back")}</a><a class="btn" href="/matches">${t("table.my_matches")}</a></div>
  </section>`;
}
