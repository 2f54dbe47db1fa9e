"""A cold load of a match page in real Chromium: one round for the whole page, the socket opened early.

The shell names every file the table needs (backend/web/assets.py), so nothing the page fetches before its
table shows is discovered late; early.js opens the match socket while the modules load, and the app adopts
that socket instead of opening a second one (js/live.js).
"""

from __future__ import annotations

import re

import pytest

from backend.web import assets

from .support import DESKTOP, Client, start_against_two_bots

pytestmark = pytest.mark.browser

GAMES = {"condottiere": "gods_playground", "gods_playground": "condottiere"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_cold_match_page_fetches_only_what_it_named_and_opens_one_socket(browser, live_server_url, game):
    host = Client(browser, live_server_url, DESKTOP)
    host.signup("load")
    start_against_two_bots(host, game)
    path = "/" + host.page.url.split("/", 3)[3]
    match_id = path.rstrip("/").rsplit("/", 1)[1]
    state = host.context.storage_state()
    host.close()

    # A fresh context: nothing cached. Everything the page asks for under /app/ until its table shows.
    context = browser.new_context(storage_state=state, viewport=DESKTOP)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        fetched: list[str] = []
        page.on("request", lambda r: fetched.append(r.url.split("/app/", 1)[1]) if "/app/" in r.url else None)
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(live_server_url + path)
        page.wait_for_selector("[data-testid=table][data-version]")
        shell = page.content()
        named = set(re.findall(r'<link rel="(?:modulepreload|preload|stylesheet)" href="/app/([^"]+)"', shell))
        named |= set(re.findall(r'<script type="module" src="/app/([^"]+)"', shell))

        assert fetched, "the page fetched its files"
        hashed = re.compile(r"\.[0-9a-f]{10}\.(js|css|json|svg)$")
        assert all(hashed.search(url) for url in fetched), [u for u in fetched if not hashed.search(u)]
        # Every module fetched was named by the shell, but the parts a table loads on first use as it shows its
        # position (the log's narrator, a decision panel): no module of the shell or the table learnt of late.
        m = assets.manifest()
        first_use = {m.names[d] for name, ds in m.dynamic.items() if name not in (assets.ENTRY, assets.TABLES) for d in ds}
        late = {u for u in set(fetched) - named if u.endswith(".js")}
        assert late <= first_use, sorted(late - first_use)
        table = {m.names[d] for d in m.tables[game][0]} | {m.names[c] for c in m.tables[game][1]}
        assert table <= named and table <= set(fetched)
        assert any(u.startswith(f"js/games/{game}/table.") for u in fetched)
        assert not [u for u in fetched if u.startswith(f"js/games/{GAMES[game]}/")]
        # One match socket, early.js's, which the app took over (and which its address names once, there).
        assert [s for s in sockets if "/ws/matches/" in s] == [re.sub(r"^http", "ws", live_server_url) + f"/ws/matches/{match_id}/?frames=patch"]
        assert page.evaluate("() => window.__earlySocket") is None  # adopted
        assert not errors, errors

        # The socket works as the app's own: a move's state arrives and the table follows it.
        version = int(page.get_attribute("[data-testid=table]", "data-version"))
        assert version >= 0 and page.evaluate("() => [...window.__sockets].every((s) => s.status === 'open')")
    finally:
        context.close()


def test_moving_to_another_match_opens_that_matchs_socket(browser, live_server_url):
    """early.js's socket is for the page's own match only: the app moving to another without a reload (a
    rematch, a link) closes it and opens the other match's own."""
    client = Client(browser, live_server_url, DESKTOP)
    try:
        client.signup("hop")
        start_against_two_bots(client, "gods_playground")
        second = client.page.url.rsplit("/", 1)[1]
        start_against_two_bots(client, "condottiere")
        first = client.page.url.rsplit("/", 1)[1]
        sockets: list = []
        client.page.on("websocket", lambda ws: sockets.append(ws))
        client.goto(f"/match/{first}")  # a cold load: the early socket, adopted
        client.page.wait_for_selector("[data-testid=table][data-version]")
        client.page.evaluate("(to) => { history.pushState(null, '', to); dispatchEvent(new PopStateEvent('popstate')); }",
                             f"/match/{second}")
        client.page.wait_for_selector("[data-testid=table][data-game=gods_playground][data-version]")
        ws = re.sub(r"^http", "ws", client.base)
        client.page.wait_for_function("() => [...window.__sockets].every((s) => s.status === 'open')")
        assert [s.url for s in sockets] == [f"{ws}/ws/matches/{first}/?frames=patch", f"{ws}/ws/matches/{second}/?frames=patch"]
        client.page.wait_for_function("() => window.__sockets.size === 1")
        assert sockets[0].is_closed() and not sockets[1].is_closed()
        assert not client.errors, client.errors
    finally:
        client.close()


def test_frames_the_early_socket_held_before_the_app_started_reach_the_table(browser, live_server_url):
    """The app's entry module is held back until early.js's socket has its first state: the app adopts the open
    socket with the frames it held (js/live.js), and the table shows that state without a second socket."""
    host = Client(browser, live_server_url, DESKTOP)
    try:
        host.signup("held")
        start_against_two_bots(host, "condottiere")
        path = "/" + host.page.url.split("/", 3)[3]
        context = browser.new_context(storage_state=host.context.storage_state(), viewport=DESKTOP)  # nothing cached
        page = context.new_page()
        held: list = []
        page.route(re.compile(r"/app/js/main\.[0-9a-f]{10}\.js$"), lambda route: held.append(route))
        sockets: list = []
        page.on("websocket", lambda ws: sockets.append(ws))
        page.goto(live_server_url + path, wait_until="commit")
        page.wait_for_function("() => window.__earlySocket && window.__earlySocket.held"
                               ".some((e) => JSON.parse(e.data).type === 'state')")
        assert held and not page.query_selector("[data-testid=table]")  # the app has not started
        first = page.evaluate("() => JSON.parse(window.__earlySocket.held.find((e) => JSON.parse(e.data).type === 'state').data).version")
        held[0].continue_()
        page.wait_for_selector("[data-testid=table][data-version]")
        assert int(page.get_attribute("[data-testid=table]", "data-version")) >= first
        assert len([s for s in sockets if "/ws/matches/" in s.url]) == 1
        assert page.evaluate("() => [...window.__sockets].map((s) => s.status)") == ["open"]
        context.close()
    finally:
        host.close()
