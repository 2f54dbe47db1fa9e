// Plain-words labels for actions a game screen has no special control for.
export function describeAction(a) {
  const rest = Object.entries(a).filter(([k]) => k !== "type")
    .map(([k, v]) => `${k} ${v === null ? "none" : Array.isArray(v) ? v.join(" + ") || "none" : v}`);
  const verb = String(a.type || "act").replace(/_/g, " ");
  return rest.length ? `${verb}: ${rest.join(", ")}` : verb;
}
