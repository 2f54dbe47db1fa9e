// When a finished match shows the rematch and the resignation card; rematch_offer.js loads then.
import { html } from "../lib.js";
import { loadWords } from "../i18n.js";
import { lazyComponent, loadCss } from "../lazy.js";
import { useSeats } from "./seats.js";

const offer = () => Promise.all([import("./rematch_offer.js"), loadWords("match_menu"), loadCss("/app/match_menu.css"), loadCss("/app/result.css")]).then(([m]) => m);
const ResultLinks = lazyComponent(() => offer().then((m) => m.ResultLinks), null);
const Ratings = lazyComponent(() => offer().then((m) => m.RatingChanges), null);
const ResignationCard = lazyComponent(() => offer().then((m) => m.ResignationCard), null);
/** The rematch (a seated player of a finished match) and the replay (everyone): rematch_offer.js. */
export function RematchButton() {
  const ctx = useSeats();
  return ctx && ctx.status === "finished" ? html`<${ResultLinks} />` : null;
}

/** How a rated match moved each player's rating ("1516 +16"), on every result card: rematch_offer.js. */
export function RatingChanges() {
  const ctx = useSeats();
  return ctx && ctx.status === "finished" && ctx.match && ctx.match.rated ? html`<${Ratings} />` : null;
}

/** A match that ended because too few players were left (docs/api.md, Resign): the tables show results
 *  only for a game played out, so this card says who won, who resigned, and offers the rematch. */
export function ResignationResult() {
  const ctx = useSeats();
  const r = ctx && ctx.match && ctx.match.result;
  if (!ctx || ctx.status !== "finished" || !r || r.reason !== "resignation") return null;
  return html`<${ResignationCard} />`;
}
