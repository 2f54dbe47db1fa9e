// App shell: header, routes, and the signed-in guard.
import { assetUrl, html, render, useEffect } from "./lib.js";
import { LANGUAGES, language, loadWords, t, useLanguage } from "./i18n.js";
import { interceptLinks, match, navigate, useLocation } from "./router.js";
import { chooseLanguage, logout, useUser } from "./session.js";
import { lazyComponent, loadCss } from "./lazy.js";
import { MatchScreen } from "./screens/match.js";
import { NotFound } from "./ui.js";
import { focusMoves } from "./games/sheet.js";
import { GAMES, importPart } from "./games/registry.js";

// Every screen but the match's loads on first use, with its words and look (frontend/README.md, Loading; the
// server preloads the one a page opens with). The match screen, the heaviest page, comes with the shell.
const screen = (fetch) => lazyComponent(() => Promise.all([fetch(), loadWords("screens"), loadCss("/app/lobby.css")]).then(([C]) => C));
const HomeScreen = screen(() => import("./screens/home.js").then((m) => m.HomeScreen));
const AuthScreen = screen(() => import("./screens/auth.js").then((m) => m.AuthScreen));
const CreateLobbyScreen = screen(() => import("./screens/create_lobby.js").then((m) => m.CreateLobbyScreen));
const LobbyRoomScreen = screen(() => import("./screens/lobby_room.js").then((m) => m.LobbyRoomScreen));
const MatchesScreen = screen(() => import("./screens/matches.js").then((m) => m.MatchesScreen));
const ResetScreen = screen(() => import("./screens/reset.js").then((m) => m.ResetScreen));
const AccountScreen = screen(() => import("./screens/account.js").then((m) => m.AccountScreen));
const ConfirmEmailScreen = screen(() => import("./screens/confirm_email.js").then((m) => m.ConfirmEmailScreen));
// A player's page and the leaderboards: once their words and styles (and lobby.css) are in.
const players = (name) => lazyComponent(() => Promise.all([import("./screens/players.js").then((m) => m.ready().then(() => m[name])),
  loadCss("/app/lobby.css")]).then(([C]) => C));
const ProfileScreen = players("ProfileScreen");
const LeaderboardScreen = players("LeaderboardScreen");
const ReplayScreen = lazyComponent(() => import("./screens/replay.js").then((m) => m.ReplayScreen));
// Each game's rules page (its manifest's [rules]) with what comes with it, e.g. the frame they share, in one round.
const RULES = GAMES.filter((g) => g.rules).map((g) => [new RegExp(`^/rules/${g.id}/?$`), lazyComponent(() => importPart(g.rules))]);

const ROUTES = [
  [/^\/$/, HomeScreen],
  [/^\/lobbies\/?$/, HomeScreen],
  [/^\/login\/?$/, AuthScreen],
  [/^\/signup\/?$/, AuthScreen],
  [/^\/reset(?:\/([^/]+)\/([^/]+))?\/?$/, ResetScreen],
  [/^\/account\/?$/, AccountScreen],
  [/^\/confirm-email\/([^/]+)\/?$/, ConfirmEmailScreen],
  [/^\/lobbies\/new\/?$/, CreateLobbyScreen],
  [/^\/lobby\/([^/]+)\/?$/, LobbyRoomScreen],
  [/^\/matches\/?$/, MatchesScreen],
  [/^\/match\/([^/]+)\/?$/, MatchScreen],
  [/^\/u\/([^/]+)\/?$/, ProfileScreen],
  [/^\/leaderboard(?:\/([^/]+))?\/?$/, LeaderboardScreen],
  [/^\/match\/([^/]+)\/replay\/?$/, ReplayScreen],
  ...RULES,
];
// Screens a visitor must sign in for; watching matches and browsing stay open.
const NEEDS_USER = new Set([CreateLobbyScreen, LobbyRoomScreen, AccountScreen]);

/** One tap to the other language; the server remembers it (cookie, and the account when signed in). */
function LanguageSwitch() {
  const other = language() === "hu" ? "en" : "hu";
  return html`<button type="button" class="btn btn-ghost btn-small lang-switch" data-testid="language" lang=${other}
    title=${LANGUAGES[other]} onClick=${() => chooseLanguage(other)}>${other.toUpperCase()}<span class="visually-hidden"> – ${LANGUAGES[other]}</span></button>`;
}

function Header({ user, path }) {
  const nav = [["/", t("nav.play"), "navlink navlink-home"], ["/matches", t("nav.matches"), "navlink"]];
  // At a table a keyboard player's first Tab offers their moves (the hand, the decision): one more key and
  // focus is there. A spectator has none: the link then goes to the content like the other one.
  const table = /^\/match\/\d+\/?$/.test(path);
  return html`<header class=${"topbar" + (user ? "" : " topbar-visitor")}>
    ${table && html`<a class="skip" href="#main" data-testid="skip-moves" onClick=${(e) => { if (focusMoves()) e.preventDefault(); }}>${t("nav.skip_moves")}</a>`}
    <a class="skip" href="#main">${t("nav.skip")}</a>
    <a class="brand" href="/" aria-label=${t("nav.home", { site: t("site.name") })}>
      <img src=${assetUrl("/app/icon.svg")} width="32" height="32" alt="" />
      <span>${t("site.name")}</span>
    </a>
    <nav aria-label=${t("nav.main")}>
      ${nav.map(([href, label, cls]) => html`<a href=${href} class=${cls} aria-current=${path === href ? "page" : undefined}>${label}</a>`)}
    </nav>
    <div class="who">
      ${user
        ? html`<a class="who-name" href="/account" data-testid="username" title=${t("nav.account")}
              aria-current=${path === "/account" ? "page" : undefined}>${user.username}</a>
            <button type="button" class="btn btn-ghost btn-small" onClick=${async () => { await logout(); navigate("/"); }}>${t("nav.logout")}</button>`
        : html`<a class="btn btn-ghost btn-small" href="/login">${t("nav.login")}</a><a class="btn btn-primary btn-small" href="/signup">${t("nav.signup")}</a>`}
      <${LanguageSwitch} />
    </div>
  </header>`;
}

function App() {
  useLanguage(); // a new language re-renders the whole tree in place, keeping every screen's state
  const loc = useLocation();
  const user = useUser();
  const hit = match(loc.path, ROUTES);
  const guarded = hit && NEEDS_USER.has(hit.component) && !user;
  useEffect(() => {
    if (guarded) navigate(`/login?next=${encodeURIComponent(loc.path + (loc.query.toString() ? "?" + loc.query : ""))}`, { replace: true });
  }, [guarded, loc.path]);
  let body;
  if (!hit) body = html`<${NotFound} />`;
  else if (guarded) body = null;
  else {
    const C = hit.component;
    body = html`<${C} key=${loc.path} params=${hit.params} query=${loc.query} path=${loc.path} user=${user} />`;
  }
  return html`<${Header} user=${user} path=${loc.path} />${body}`;
}

interceptLinks();
const root = document.getElementById("app");
const first = match(location.pathname, ROUTES);
try {
  // The words and the first screen's code arrive together (both are preloaded by the page).
  await Promise.all([loadWords("site"), first && first.component.load ? first.component.load().catch(() => null) : null]);
  root.textContent = "";
  render(html`<${App} />`, root);
} catch (e) {
  // Without its words the app cannot say anything else: both languages, plainly.
  root.textContent = "Az oldal nem töltődött be; töltsd újra. · The page did not load; reload it.";
  throw e;
}

// The service worker: the app shell offline, and the notices of backend/notifications (frontend/sw.js).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => null);
