// App shell: header, routes, and the signed-in guard.
import { html, render, useEffect } from "./lib.js";
import { interceptLinks, match, navigate, useLocation } from "./router.js";
import { logout, useUser } from "./session.js";
import { AuthScreen } from "./screens/auth.js";
import { HomeScreen } from "./screens/home.js";
import { CreateLobbyScreen } from "./screens/create_lobby.js";
import { LobbyRoomScreen } from "./screens/lobby_room.js";
import { MatchesScreen } from "./screens/matches.js";
import { MatchScreen } from "./screens/match.js";
import { Page } from "./ui.js";

const ROUTES = [
  [/^\/$/, HomeScreen],
  [/^\/lobbies\/?$/, HomeScreen],
  [/^\/login\/?$/, AuthScreen],
  [/^\/signup\/?$/, AuthScreen],
  [/^\/lobbies\/new\/?$/, CreateLobbyScreen],
  [/^\/lobby\/([^/]+)\/?$/, LobbyRoomScreen],
  [/^\/matches\/?$/, MatchesScreen],
  [/^\/match\/([^/]+)\/?$/, MatchScreen],
];
// Screens a visitor must sign in for; watching matches and browsing stay open.
const NEEDS_USER = new Set([CreateLobbyScreen, LobbyRoomScreen]);

function Header({ user, path }) {
  const nav = [["/", "Play"], ["/matches", "Matches"]];
  return html`<header class="topbar">
    <a class="skip" href="#main">Skip to content</a>
    <a class="brand" href="/" aria-label="Home: Condottiere & God's Playground">
      <img src="/app/icon.svg" width="32" height="32" alt="" />
      <span>Condottiere & God's Playground</span>
    </a>
    <nav aria-label="Main">
      ${nav.map(([href, label]) => html`<a href=${href} class="navlink" aria-current=${path === href ? "page" : undefined}>${label}</a>`)}
    </nav>
    <div class="who">
      ${user
        ? html`<span class="who-name" data-testid="username">${user.username}</span>
            <button type="button" class="btn btn-ghost btn-small" onClick=${async () => { await logout(); navigate("/"); }}>Log out</button>`
        : html`<a class="btn btn-ghost btn-small" href="/login">Log in</a><a class="btn btn-primary btn-small" href="/signup">Sign up</a>`}
    </div>
  </header>`;
}

function App() {
  const loc = useLocation();
  const user = useUser();
  const hit = match(loc.path, ROUTES);
  const guarded = hit && NEEDS_USER.has(hit.component) && !user;
  useEffect(() => {
    if (guarded) navigate(`/login?next=${encodeURIComponent(loc.path + (loc.query.toString() ? "?" + loc.query : ""))}`, { replace: true });
  }, [guarded, loc.path]);
  let body;
  if (!hit) body = html`<${Page} title="Not found"><p>There is nothing here. <a href="/">Back to the lobbies</a>.</p><//>`;
  else if (guarded) body = null;
  else {
    const C = hit.component;
    body = html`<${C} key=${loc.path} params=${hit.params} query=${loc.query} path=${loc.path} user=${user} />`;
  }
  return html`<${Header} user=${user} path=${loc.path} />${body}`;
}

interceptLinks();
const root = document.getElementById("app");
root.textContent = "";
render(html`<${App} />`, root);
