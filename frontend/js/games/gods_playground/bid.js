// A sealed bid (the Sejm's tie-breaks): everyone at the table sees who has bid; a bidder picks any amount
// the server offers and sends it once. Loaded, with its words and gp_bid.css, when bids first open (table.js).
import { html, useState } from "../../lib.js";
import { t } from "../../i18n.js";

/** A sealed bid: any amount the server offers, sent once. */
export function BidPanel({ view, legal, send, pending, names }) {
  const amounts = legal.filter((a) => a.type === "bid").map((a) => a.amount).sort((a, b) => a - b);
  const [wanted, setAmount] = useState(0);
  const pend = view.pending || {};
  const max = amounts.length ? amounts[amounts.length - 1] : 0;
  const amount = Math.min(wanted, max); // a second tie-break round may find the purse lighter
  const chosen = legal.find((a) => a.type === "bid" && a.amount === amount);
  return html`<section class="panel gp-decision" data-testid="bid-panel" aria-labelledby="bid-title">
    <h2 id="bid-title">${t("gp.b.title")}</h2>
    <ul class="gp-bidders" tabindex="0" aria-label=${t("gp.b.title")}>${(pend.seats || []).map((s) => {
      const inn = (pend.bids_in || []).includes(s);
      const mine = s === view.you && pend.your_bid != null;
      return html`<li><span class="gp-bid-card" aria-hidden="true">${mine ? pend.your_bid : inn ? "?" : "…"}</span>
        ${names(s)}${s === view.you ? ` (${t("ui.you")})` : ""}: ${mine ? t("gp.b.yours", { count: pend.your_bid }) : t(inn ? "gp.b.sealed" : "gp.b.thinking")}</li>`;
    })}</ul>
    ${amounts.length > 0 && html`<div class="gp-bid-form">
      <label for="gp-bid">${t("gp.b.label", { max })}</label>
      <div class="stepper">
        <button type="button" class="btn" aria-label=${t("gp.b.less")} data-testid="bid-less" disabled=${amount <= 0} onClick=${() => setAmount(Math.max(0, amount - 1))}>−</button>
        <input id="gp-bid" type="range" min="0" max=${max} step="1" value=${amount} onInput=${(e) => setAmount(Number(e.target.value))} />
        <output for="gp-bid">${amount}</output>
        <button type="button" class="btn" aria-label=${t("gp.b.more")} data-testid="bid-more" disabled=${amount >= max} onClick=${() => setAmount(Math.min(max, amount + 1))}>+</button>
      </div>
      <button type="button" class="btn btn-primary btn-block" data-testid="bid-submit" disabled=${!chosen || pending}
        onClick=${() => send(chosen)}>${t("gp.b.submit", { count: amount })}</button>
    </div>`}
  </section>`;
}
