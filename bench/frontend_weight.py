"""Weight and speed of each game's match page, in real Chromium against a local Daphne.

    .venv/bin/python bench/frontend_weight.py [--runs 5] [--url http://127.0.0.1:8000] [--game condottiere] [--nginx]
        [--baseline ../other-checkout]

Without --url it starts its own Daphne (temp SQLite, fast bots); with --nginx, that Daphne runs the
production settings behind the shipped nginx (deploy/nginx: TLS, HTTP/2, gzip, the app from
collectstatic's lean copy), as players reach the site. It signs up,
and for each game (Condottiere, God's Playground; or only --game) opens a
3-seat lobby with two bots, starts it, then loads the match page `--runs`
times in each language (English and Hungarian, chosen by the language cookie),
in a fresh browser context each (cold cache, the loads interleaved so all see
the same machine load) and prints per game and language:
  * the bytes of JavaScript, CSS and that language's catalogues (frontend/i18n/)
    the page loaded (uncompressed bodies; the target is at most 150 KB per game
    page with one language's words), file by file with the total, in the worst
    case: the log has a line (so the log's narrator and the game's event words
    are in; the bench makes a move for the player if no bot has moved yet) and
    the page is read once the log shows it and the network is quiet;
  * the time from navigation start to the first rendered table (the
    [data-testid=table] element in the DOM), median and range, in ms, twice:
    polled (performance.now() once Playwright has seen the table visible; it
    looks 0, 20, 50, 100 and 100 ms after the load event, then every 500 ms,
    so a load is rounded up by up to half a second), and drawn (timed in the
    page: the end of the first frame that draws the table, TABLE_DRAWN);
  * the same time on a phone profile (`--phone-runs` cold loads per game and
    language, 0 to skip): a 360 x 740 touch viewport with Chromium's CPU
    throttled 4x and DevTools' "Fast 3G" network (562.5 ms latency, about
    1.4 Mbit/s down), both through the DevTools protocol.
With --baseline DIR (another checkout of this repository, e.g. `git worktree add ../base main`), the same
stack also starts from DIR's code, and every cold load there is followed by the same load here: the phone
figures of both, side by side, under the same machine load.
Figures depend on the machine and its load (the CPU factor multiplies it).
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.servers import Daphne, manage  # noqa: E402
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TARGET = 150 * 1024


def start_server(tmp: Path) -> tuple[list, str]:
    """A Daphne on the embedded default (temp SQLite); its base URL."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}", "REDIS_URL": "", "BOT_DELAY": "0.05",
           "THROTTLE_SIGNUP": "1000/min", "DJANGO_DEBUG": "0", "LOG_LEVEL": "WARNING"}
    manage(env, "migrate", "--noinput", "-v0")
    daphne = Daphne(env, log=tmp / "daphne.log")
    return [daphne], f"http://127.0.0.1:{daphne.port}"


def start_behind_nginx(tmp: Path) -> tuple[list, str]:
    """A production-settings Daphne (as the systemd unit runs it) behind the shipped nginx; its base URL."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backend.settings")
    import django

    django.setup()  # for collectstatic, which the nginx helper runs into its own folder
    from tests.support.deploy import Nginx, Worker

    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}", "REDIS_URL": "", "BOT_DELAY": "0.05",
           "THROTTLE_SIGNUP": "1000/min", "LOG_LEVEL": "WARNING", "DJANGO_PRODUCTION": "1",
           "DJANGO_SECRET_KEY": secrets.token_urlsafe(64), "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "TRUSTED_PROXY_COUNT": "1"}
    manage(env, "migrate", "--noinput", "-v0")
    worker = Worker(env, tmp / "worker.log")
    nginx = Nginx(tmp / "nginx", [worker.port]).start()
    return [nginx, worker], nginx.url


# Run with DIR's Python path and working directory: DIR's own way of starting the stack; prints its URL, stops
# when its standard input closes.
_BASELINE = """
import sys, tempfile
from pathlib import Path
sys.path[:0] = [{root!r}, {root!r} + "/bench"]
import frontend_weight as f
with tempfile.TemporaryDirectory() as tmp:
    servers, url = (f.start_behind_nginx if {nginx} else f.start_server)(Path(tmp))
    print(url, flush=True)
    sys.stdin.read()
    for server in servers:
        server.stop()
"""


def start_baseline(root: Path, nginx: bool) -> tuple[subprocess.Popen, str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    proc = subprocess.Popen([sys.executable, "-c", _BASELINE.format(root=str(root), nginx=nginx)], cwd=root, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip()
    if not url:
        raise RuntimeError(f"the baseline in {root} did not start")
    return proc, url


# DevTools' "Fast 3G" preset (its figures: 150 ms x 3.75 latency, 1.6 Mbit/s x 0.9 down, 750 kbit/s x 0.9 up).
FAST_3G = {"offline": False, "latency": 562.5, "downloadThroughput": 1.6 * 1024 * 1024 / 8 * 0.9,
           "uploadThroughput": 750 * 1024 / 8 * 0.9}
PHONE_CPU_SLOWDOWN = 4
PHONE = {"width": 360, "height": 740}

# The site's games (backend/games/manifests/), by id, with their English names.
GAMES = {m["id"]: m["name"]["en"] for m in (tomllib.loads(p.read_text()) for p in sorted((ROOT / "backend" / "games" / "manifests").glob("*.toml")))}
LANGUAGES = {"en": "English", "hu": "Hungarian"}


def make_match(browser, base: str, game: str) -> tuple[str, dict]:
    """Sign up and start a 3-seat lobby of `game` with two bots; returns the match path and the session cookies."""
    context = browser.new_context(ignore_https_errors=True)
    page = context.new_page()
    page.goto(base + "/")
    req = context.request
    csrf = lambda: next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
    sent = lambda: {"X-CSRFToken": csrf(), "Referer": base + "/"}  # over https Django's CSRF check wants the Referer
    name = f"bench{game[:2]}{int(time.time() * 1000) % 10**8}"
    r = req.post(base + "/api/auth/signup/", data={"username": name, "password": "a-long-bench-passphrase-1"},
                 headers=sent())
    assert r.ok, r.text()
    lobby = req.post(base + "/api/lobbies/", data={"game": game, "options": {}, "num_seats": 3, "private": False},
                     headers=sent()).json()
    for _ in range(2):
        assert req.post(base + f"/api/lobbies/{lobby['id']}/bots/", data={"bot": "heuristic"},
                        headers=sent()).ok
    started = req.post(base + f"/api/lobbies/{lobby['id']}/start/", headers=sent())
    assert started.ok, started.text()
    match_id = started.json()["match_id"]
    # The worst case has log lines: when the player moves first, the bench makes that move for them.
    page.evaluate(FIRST_LINE, match_id)
    state = context.storage_state()
    context.close()
    return f"/match/{match_id}", state


# Resolves once the match's log has a line: at each position from the socket, the history is read; while it is
# empty and the move is the player's, their first legal action is sent (the bots move by themselves).
FIRST_LINE = """async (id) => {
  const lines = async () => { const d = await (await fetch(`/api/matches/${id}/events/`)).json(); return (d.results || d).length; };
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/matches/${id}/`);
  let sent = false;
  await new Promise((resolve) => { ws.onmessage = async (e) => {
    const m = JSON.parse(e.data);
    if (m.type !== "state") return;
    if (await lines()) { resolve(); return; }
    if (!sent && (m.legal_actions || []).length) {
      sent = true;
      ws.send(JSON.stringify({ type: "action", version: m.version, id: "bench-first", action: m.legal_actions[0] }));
    }
  }; });
  ws.close();
}"""


# The first table as the page draws it, timed inside the page: once the table is in the document, a task posted
# from the next animation frame's callback runs once that frame's style, layout and paint are done; posted at the
# highest priority, it runs before the timers the app set in that frame (Preact runs its effects in one). (The
# polled figure, performance.now() once Playwright has seen the table, waits for Playwright's next look: it
# looks at 0, 20, 50, 100 and 100 ms after the page's load event, then every 500 ms, so it rounds a load up by
# up to half a second.)
TABLE_DRAWN = """(() => {
  const obs = new MutationObserver(() => {
    if (!document.querySelector("[data-testid=table]")) return;
    obs.disconnect();
    requestAnimationFrame(() => {
      const drawn = () => { window.__tableDrawn = performance.now(); };
      if (window.scheduler && scheduler.postTask) { scheduler.postTask(drawn, { priority: "user-blocking" }); return; }
      const c = new MessageChannel();
      c.port1.onmessage = drawn;
      c.port2.postMessage(0);
    });
  });
  obs.observe(document, { childList: true, subtree: true });
})();"""


def measure(browser, base: str, path: str, state: dict, lang: str, phone: bool = False) -> tuple[dict[str, int], float, str, float]:
    if phone:
        context = browser.new_context(storage_state=state, viewport=PHONE, has_touch=True, is_mobile=True,
                                      ignore_https_errors=True)
    else:
        context = browser.new_context(storage_state=state, viewport={"width": 1280, "height": 800},
                                      ignore_https_errors=True)
    context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
    context.add_init_script(TABLE_DRAWN)
    page = context.new_page()
    if phone:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", FAST_3G)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": PHONE_CPU_SLOWDOWN})
    sizes: dict[str, int] = {}

    def on_response(response):
        kind = response.request.resource_type
        url = response.url
        if kind in ("script", "stylesheet") or url.endswith((".js", ".css")) or "/app/i18n/" in url:
            try:
                sizes[url.replace(base, "")] = len(response.body())
            except Exception:  # a redirect or aborted load has no body
                pass

    page.on("response", on_response)
    page.goto(base + path, timeout=120000)
    page.wait_for_selector("[data-testid=table]", timeout=120000)
    elapsed = page.evaluate("performance.now()")
    drawn = page.wait_for_function("() => window.__tableDrawn", timeout=120000).json_value()
    shown = ""
    if not phone:
        # The worst case: the log shows its line (its words are in), then nothing more is on its way.
        page.wait_for_selector("[data-testid=log] li", timeout=120000)
        page.wait_for_load_state("networkidle")
        shown = page.eval_on_selector("[data-testid=table]", "t => `my move: ${t.dataset.myTurn}`"
                                      " + (t.dataset.pending ? `, decision: ${t.dataset.pending}` : '')")
    context.close()
    return sizes, elapsed, shown, drawn


def spread(times: list[float]) -> str:
    return f"median {statistics.median(times):.0f} ms (min {min(times):.0f}, max {max(times):.0f}, {len(times)} cold loads)"


def report(game: str, lang: str, path: str, sizes: dict[str, int], shown: str, times: list[float], phone: list[float],
           drawn: list[float], phone_drawn: list[float]) -> None:
    kinds = {"JS": ".js", "CSS": ".css", "words": ".json"}
    files = {k: {u: n for u, n in sizes.items() if u.split("?")[0].endswith(ext)} for k, ext in kinds.items()}
    print(f"{GAMES[game]} match page {path}, in {LANGUAGES[lang]} (log lines shown; {shown})")
    for url, n in sorted(sizes.items(), key=lambda kv: -kv[1]):
        print(f"  {n:8,d} B  {url}")
    for kind, found in files.items():
        print(f"  {kind:5} {sum(found.values()):8,d} B in {len(found)} files")
    total = sum(sum(found.values()) for found in files.values())
    print(f"  JS+CSS+words {total:,d} B = {total / 1024:.1f} KB (target <= {TARGET // 1024} KB: {'met' if total <= TARGET else 'NOT met'})")
    print(f"  navigation to first rendered table: {spread(times)}")
    print(f"    drawn, timed in the page: {spread(drawn)}")
    if phone:
        print(f"  on a phone profile ({PHONE['width']}x{PHONE['height']}, CPU {PHONE_CPU_SLOWDOWN}x slower, Fast 3G): {spread(phone)}")
        print(f"    drawn, timed in the page: {spread(phone_drawn)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--phone-runs", type=int, default=3, help="cold loads on the phone profile (0: none)")
    parser.add_argument("--url", default="")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only this game (repeatable)")
    parser.add_argument("--nginx", action="store_true", help="behind the shipped nginx, with production settings")
    parser.add_argument("--baseline", type=Path, help="another checkout: its phone loads interleaved with these")
    args = parser.parse_args()
    games = args.game or list(GAMES)
    from playwright.sync_api import sync_playwright

    servers = []
    baseline, other = None, ""
    with tempfile.TemporaryDirectory() as tmp:
        base = args.url.rstrip("/")
        if not base:
            servers, base = (start_behind_nginx if args.nginx else start_server)(Path(tmp))
        try:
            if args.baseline:
                baseline, other = start_baseline(args.baseline.resolve(), args.nginx)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                matches = {g: make_match(browser, base, g) for g in games}
                theirs = {g: make_match(browser, other, g) for g in games} if other else {}
                times: dict[tuple[str, str], list[float]] = {(g, lang): [] for g in games for lang in LANGUAGES}
                drawn: dict[tuple[str, str], list[float]] = {key: [] for key in times}
                sizes: dict[tuple[str, str], dict[str, int]] = {}
                shown: dict[tuple[str, str], str] = {}
                for _ in range(args.runs):
                    for key in times:
                        sizes[key], t, shown[key], d = measure(browser, base, *matches[key[0]], key[1])
                        times[key].append(t)
                        drawn[key].append(d)
                # (polled, drawn) per cold load, here and in the baseline
                phone: dict[tuple[str, str], list[tuple[float, float]]] = {key: [] for key in times}
                phone_then: dict[tuple[str, str], list[tuple[float, float]]] = {key: [] for key in times}
                for _ in range(args.phone_runs):
                    for key, got in phone.items():
                        if theirs:
                            phone_then[key].append(measure(browser, other, *theirs[key[0]], key[1], phone=True)[1::2])
                        got.append(measure(browser, base, *matches[key[0]], key[1], phone=True)[1::2])
                browser.close()
        finally:
            if baseline:
                baseline.stdin.close()
                baseline.wait(timeout=60)
            for server in servers:
                server.stop()
    print(f"on {base if args.url else 'the shipped nginx and a Daphne worker' if args.nginx else 'a local Daphne'}")
    for g, lang in times:
        report(g, lang, matches[g][0], sizes[g, lang], shown[g, lang], times[g, lang], [p for p, _ in phone[g, lang]],
               drawn[g, lang], [d for _, d in phone[g, lang]])
    if args.baseline and args.phone_runs:
        print(f"\nphone profile, first rendered table, median [min-max] of {args.phone_runs} cold loads each, "
              f"interleaved (baseline: {args.baseline}); polled as before, and drawn, timed in the page")
        print(f"  {'game':18} {'lang':4} {'baseline polled':>18} {'this polled':>18} {'baseline drawn':>18} {'this drawn':>18}")
        cell = lambda xs: f"{statistics.median(xs):.0f} [{min(xs):.0f}-{max(xs):.0f}]"
        for g, lang in times:
            then, now = phone_then[g, lang], phone[g, lang]
            print(f"  {GAMES[g]:18} {lang:4} {cell([p for p, _ in then]):>18} {cell([p for p, _ in now]):>18} "
                  f"{cell([d for _, d in then]):>18} {cell([d for _, d in now]):>18}")


if __name__ == "__main__":
    main()
