// What the lobby screens and a rules page share (a match page does without: frontend/README.md, Loading).
import { html, useEffect, useState } from "../lib.js";
import { get } from "../api.js";
import { language, t, useLanguage } from "../i18n.js";

const gamesCache = {}; // per language: the server writes option labels and help in it

/** GET /api/games/ once per page load and language. */
export function useGames() {
  const lang = useLanguage();
  const [games, setGames] = useState(gamesCache[lang] || null);
  const [error, setError] = useState("");
  useEffect(() => {
    if (gamesCache[lang]) { setGames(gamesCache[lang]); return; }
    get("/api/games/").then((g) => { gamesCache[lang] = g; setGames(g); }).catch((e) => setError(e.message));
  }, [lang]);
  return { games, error };
}

/** Load `path` now and every `every` ms (0: once); returns {data, error, reload}. */
export function usePolled(path, every = 0) {
  const [data, setData] = useState(null);
  const [error, setError] = useState("");
  const [n, setN] = useState(0);
  useEffect(() => {
    if (!path) return undefined;
    let alive = true;
    const load = () => get(path).then((d) => { if (alive) { setData(d); setError(""); } })
      .catch((e) => { if (alive) setError(e.message); });
    load();
    const t = every ? setInterval(() => { if (!document.hidden) load(); }, every) : null;
    return () => { alive = false; if (t) clearInterval(t); };
  }, [path, every, n]);
  return { data, error, reload: () => setN((x) => x + 1) };
}

export function listOf(data) {
  if (!data) return [];
  return Array.isArray(data) ? data : data.results || [];
}

export function optionSummary(game, options) {
  if (!game || !options) return "";
  const schema = game.options_schema || {};
  return Object.entries(options)
    .filter(([k, v]) => schema[k] && !schema[k].test_hook && v !== schema[k].default)
    .map(([k, v]) => (schema[k].type === "bool" ? schema[k].label || k : `${schema[k].label || k}: ${v}`))
    .join(" · ");
}

export function Empty({ children }) {
  return html`<p class="empty">${children}</p>`;
}

/** "5 minutes ago" in the current language; older than a day, the date. */
export function ago(iso) {
  if (!iso) return "";
  const s = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
  if (s < 60) return t("time.now");
  const rel = new Intl.RelativeTimeFormat(language(), { numeric: "auto", style: "short" });
  if (s < 3600) return rel.format(-Math.floor(s / 60), "minute");
  if (s < 86400) return rel.format(-Math.floor(s / 3600), "hour");
  return new Date(iso).toLocaleDateString(language());
}

/** A player's name as a link to their page (/u/<name>, js/screens/players.js). */
export function PlayerLink({ user }) {
  return html`<a class="player-link" href=${"/u/" + encodeURIComponent(user.username)}>${user.username}</a>`;
}
