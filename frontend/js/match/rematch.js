// When a finished match shows the rematch and the resignation card; rematch_offer.js loads then.
import { html } from "../lib.js";
import { loadWords, t } from "../i18n.js";
import { lazyComponent, loadCss } from "../lazy.js";
import { useSeats } from "./seats.js";

const offer = () => Promise.all([import("./rematch_offer.js"), loadWords("match_menu"), loadCss("/app/match_menu.css"), loadCss("/app/result.css")]).then(([m]) => m);
const RematchBox = lazyComponent(() => offer().then((m) => m.RematchBox), null);
const ResignationCard = lazyComponent(() => offer().then((m) => m.ResignationCard), null);
// On every result card, for everyone (screens/replay.js).
const ReplayLink = ({ id }) => html`<a class="btn" href=${`/match/${id}/replay`} data-testid="replay-link">${t("matches.replay")}</a>`;

/** Opens or joins the rematch lobby (a seated player of a finished match); the replay, for everyone. */
export function RematchButton() {
  const ctx = useSeats();
  if (!ctx || ctx.status !== "finished") return null;
  if (ctx.mySeat == null || !ctx.user) return html`<${ReplayLink} id=${ctx.id} />`;
  return html`<${RematchBox} /><${ReplayLink} id=${ctx.id} />`;
}

/** A match that ended because too few players were left (docs/api.md, Resign): the tables show results
 *  only for a game played out, so this card says who won, who resigned, and offers the rematch. */
export function ResignationResult() {
  const ctx = useSeats();
  const r = ctx && ctx.match && ctx.match.result;
  if (!ctx || ctx.status !== "finished" || !r || r.reason !== "resignation") return null;
  return html`<${ResignationCard} />`;
}
