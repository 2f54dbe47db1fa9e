// Fallback table for a game without its own screen yet: whose move it is, the
// legal actions as labelled buttons, the log and the result. The raw view is
// kept behind a disclosure for players who want every detail.
import { html } from "../../lib.js";
import { list, t } from "../../i18n.js";
import { Notice, SeatDot, seatName } from "../../ui.js";
import { describeAction } from "../actions.js";
import { useLogLine } from "../log.js";
import { RematchButton } from "../../match/rematch.js";

export function GenericTable({ match, view, legal, status = "active", send, pending, rejection, clearRejection, log, version, connected }) {
  const names = (s) => seatName(match, s);
  const result = (view && view.result) || (match && match.result);
  const movers = status === "active" ? (view && view.to_move) || [] : [];
  const busy = pending || !connected;
  const line = useLogLine(match && match.game, log);
  return html`<div class="generic-table" data-testid="table" data-version=${version} data-my-turn=${legal.length ? "yes" : "no"}>
    <div class=${"status" + (legal.length ? " status-mine" : "")} role="status" aria-live="polite">
      ${t(status === "aborted" ? "table.aborted" : result || status !== "active" ? "table.over" : legal.length ? "table.your_move" : movers.length ? "table.waiting_for" : "table.waiting", { names: list(movers.map(names)) })}
    </div>
    <${Notice} onClose=${clearRejection}>${rejection}<//>
    ${result && html`<section class="result card" data-testid="result"><h2>${(result.winners || []).length ? list(result.winners.map(names)) : t("table.no_winner")}</h2>
      <ol class="scores">${(result.scores || []).map((sc, s) => html`<li><${SeatDot} seat=${s} /><span>${names(s)}</span><strong>${sc}</strong></li>`)}</ol>
      <div class="actions"><${RematchButton} /><a class="btn btn-primary" href="/">${t("nav.back")}</a></div></section>`}
    ${legal.length > 0 && html`<section class="panel"><h2>${t("table.your_moves")}</h2>
      <div class="chips">${legal.map((a) => html`<button type="button" class="btn" disabled=${busy}
        onClick=${() => send(a)}>${describeAction(a)}</button>`)}</div></section>`}
    <section class="panel"><h2>${t("table.log")}</h2>
      <ol class="log" tabindex="0">${line && log.map((e) => html`<li>${line(e, names)}</li>`)}</ol></section>
    <details class="panel"><summary>${t("table.everything")}</summary><pre class="view-dump">${JSON.stringify(view, null, 2)}</pre></details>
  </div>`;
}
