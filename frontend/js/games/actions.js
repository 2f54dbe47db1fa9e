// Plain words shared by every game's table: labels for actions a screen has no
// special control for (the action's own fields, as the server names them).
import { t } from "../i18n.js";

const words = (x) => String(x).replace(/_/g, " ");

export function describeAction(a) {
  const none = t("ui.none");
  const rest = Object.entries(a).filter(([k]) => k !== "type")
    .map(([k, v]) => `${words(k)} ${v === null ? none : Array.isArray(v) ? v.map(words).join(" + ") || none : words(v)}`);
  const verb = String(a.type || "act").replace(/_/g, " ");
  return rest.length ? `${verb}: ${rest.join(", ")}` : verb;
}
