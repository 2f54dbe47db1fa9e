// Plain words shared by every game's table: labels for actions a screen has no
// special control for (the action's own fields, as the server names them), and
// player names in the engines' log lines (which are English until events become data).
import { t } from "../i18n.js";

const words = (x) => String(x).replace(/_/g, " ");

export function describeAction(a) {
  const none = t("ui.none");
  const rest = Object.entries(a).filter(([k]) => k !== "type")
    .map(([k, v]) => `${words(k)} ${v === null ? none : Array.isArray(v) ? v.map(words).join(" + ") || none : words(v)}`);
  const verb = String(a.type || "act").replace(/_/g, " ");
  return rest.length ? `${verb}: ${rest.join(", ")}` : verb;
}

/** Engine texts name seats ("Seat 2"); players know each other by name. */
export function withNames(text, names) {
  return String(text || "").replace(/\bSeat (\d+)/g, (_, n) => names(Number(n)));
}
