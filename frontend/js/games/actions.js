// Plain-words labels for actions a game screen has no special control for.
const words = (x) => String(x).replace(/_/g, " ");

export function describeAction(a) {
  const rest = Object.entries(a).filter(([k]) => k !== "type")
    .map(([k, v]) => `${words(k)} ${v === null ? "none" : Array.isArray(v) ? v.map(words).join(" + ") || "none" : words(v)}`);
  const verb = String(a.type || "act").replace(/_/g, " ");
  return rest.length ? `${verb}: ${rest.join(", ")}` : verb;
}
