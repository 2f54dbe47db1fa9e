"""The shipped nginx configuration, rendered for test ports, in front of two real Daphne workers.

The workers share one PostgreSQL (the test database) and one Redis (the
test's own); everything goes through nginx over TLS with a self-signed
certificate, as players would.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import random
import time
import uuid

import pytest
from django.conf import settings

from backend.web import assets
from backend.web.lean import lean_bytes
from tests.support.deploy import (MatchViewer, Nginx, connect, fetch, play)
from tests.support.servers import free_port
from tests.platform.match_support import condottiere_policy


def test_the_shipped_config_passes_nginx_t(tmp_path):
    nginx = Nginx(tmp_path, [free_port(), free_port()])
    nginx.render()
    out = nginx.check()
    assert "syntax is ok" in out and "test is successful" in out
    site = (tmp_path / "games.conf").read_text()
    # The client's own X-Forwarded-For never reaches a worker; no query string reaches the access log.
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in site and "$proxy_add_x_forwarded_for" not in site
    log_format = site[site.index("log_format"):site.index(";", site.index("log_format"))]
    assert "$games_logged_uri" in log_format and "$request " not in log_format and "$request_uri" not in log_format
    assert "hash $uri consistent;" in (tmp_path / "games-upstreams.conf").read_text()


def _match(django_user_model, public: bool = True) -> tuple[int, list[str]]:
    from rest_framework.authtoken.models import Token

    from backend.matches.services import create_match

    users = [django_user_model.objects.create_user(username=f"ng{i}{uuid.uuid4().hex[:6]}", password="x-long-pass-1")
             for i in range(3)]
    match = create_match("condottiere", {}, users, 11, public)
    return match.pk, [Token.objects.create(user=u).key for u in users]


@pytest.mark.django_db(transaction=True)
def test_three_players_and_a_spectator_play_to_the_end_through_nginx(stack, django_user_model):
    match_id, tokens = _match(django_user_model)
    match_path = f"/ws/matches/{match_id}/"

    async def scenario() -> tuple[list[MatchViewer], MatchViewer, int]:
        seats = [await MatchViewer.join(stack.wss + match_path, t) for t in tokens]
        spectator = await MatchViewer.join(f"{stack.wss}{match_path}")
        rng = random.Random(5)
        final = await play(seats, [spectator], lambda legal: condottiere_policy(legal, rng), limit=3000)
        lobby_sockets = [await connect(f"{stack.wss}/ws/lobbies/") for _ in range(6)]
        for ws in lobby_sockets:
            assert json.loads(await ws.recv())["type"] == "lobbies"
        for ws in lobby_sockets + [v.ws for v in seats + [spectator]]:
            await ws.close()
        return seats, spectator, final

    seats, spectator, final = asyncio.run(scenario())
    assert spectator.state["status"] == "finished" and spectator.state["version"] == final > 20
    assert spectator.state["view"]["hand"] is None and spectator.state["legal_actions"] == []
    for viewer in seats + [spectator]:
        assert viewer.state["version"] == final
        assert viewer.versions == sorted(set(viewer.versions))  # none twice, in order
    from backend.matches.models import ActionLog, Match

    assert Match.objects.get(pk=match_id).status == "finished"
    assert list(ActionLog.objects.filter(match_id=match_id).order_by("version")
                .values_list("version", flat=True)) == list(range(1, final + 1))

    # Every socket of the match on one worker; the lobby sockets on both.
    per_worker = [len(lines) for lines in stack.worker_lines("ws_connect", match_path)]
    assert sorted(per_worker) == [0, 4], per_worker
    assert all(len(lines) >= 1 for lines in stack.worker_lines("ws_connect", "/ws/lobbies/"))
    # Through nginx the workers see nginx's idea of the client, whatever the client claims.
    assert fetch("GET", stack.nginx.url + "/api/games/", headers={"X-Forwarded-For": "203.0.113.7"})[0] == 200
    clients = {line["client"] for w in stack.workers for line in w.json_lines() if line.get("logger") == "games.access"}
    assert clients == {"127.0.0.1"}, clients
    # A password-reset link's token stays out of both logs.
    assert fetch("GET", stack.nginx.url + "/reset/MQ/secret-reset-token")[0] == 200
    access = stack.nginx.access_log(match_path, "/reset/")
    assert match_path in access and "/reset/" in access
    for secret in ("secret-reset-token", *tokens):
        assert secret not in access and not any(secret in w.text() for w in stack.workers)


@pytest.mark.django_db(transaction=True)
def test_nginx_serves_files_and_redirects_plain_http(stack):
    (stack.nginx.static_root / "probe.txt").write_text("static")
    status, headers, body = fetch("GET", stack.nginx.url + "/static/probe.txt")
    assert (status, body) == (200, b"static")
    status, headers, body = fetch("GET", stack.nginx.url + "/app/js/main.js")
    assert status == 200 and headers["Cache-Control"] == "no-cache"
    assert headers["X-Content-Type-Options"] == "nosniff" and "javascript" in headers["Content-Type"]
    # collectstatic's copy: the same lean bytes Django serves, compressed for browsers that take it.
    assert body == lean_bytes(settings.FRONTEND_DIR / "js" / "main.js") != (settings.FRONTEND_DIR / "js" / "main.js").read_bytes()
    status, headers, packed = fetch("GET", stack.nginx.url + "/app/js/main.js", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip" and gzip.decompress(packed) == body
    # The hashed name the pages use: the same bytes, kept for a year.
    hashed = assets.manifest().names["js/main.js"]
    status, headers, same = fetch("GET", f"{stack.nginx.url}/app/{hashed}")
    assert status == 200 and same == body and headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["X-Content-Type-Options"] == "nosniff" and "javascript" in headers["Content-Type"]
    status, headers, packed = fetch("GET", f"{stack.nginx.url}/app/{hashed}", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip" and gzip.decompress(packed) == body
    assert not any("/app/" in line.get("path", "") for w in stack.workers for line in w.json_lines())
    status, headers, _ = fetch("GET", f"http://127.0.0.1:{stack.nginx.http_port}/lobby/3?code=x")
    assert status == 301 and headers["Location"] == "https://127.0.0.1/lobby/3?code=x"
    status, headers, body = fetch("GET", stack.nginx.url + "/match/7")
    assert status == 200 and b'id="boot"' in body and "Content-Security-Policy" in headers
    assert headers["Strict-Transport-Security"].startswith("max-age=")  # production, and https behind nginx


HALF_OPEN = 1100  # the figure: 1,100 half-open sockets broke bare Daphne at a 1,024-file limit


@pytest.mark.django_db(transaction=True)
def test_a_slowloris_against_nginx_leaves_real_players_answered(stack, django_user_model):
    match_id, tokens = _match(django_user_model)

    async def scenario() -> dict:
        # Half of them send part of a request and then a byte at a time (slowloris), half never
        # start their TLS handshake; none of them ever reaches a worker.
        slow = []
        for i in range(HALF_OPEN):
            port = stack.nginx.http_port if i % 2 else stack.nginx.https_port
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            if i % 2:
                writer.write(b"GET /api/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            slow.append((reader, writer, time.monotonic()))

        async def trickle() -> None:
            while True:
                for _, writer, _ in slow[1::2]:
                    if not writer.is_closing():
                        writer.write(b"X")
                await asyncio.sleep(1)

        trickling = asyncio.create_task(trickle())
        worker_files = [w.open_files() for w in stack.workers]

        # Real players meanwhile: pages and API over TLS, and a match played over wss.
        latencies = []
        for path in ["/", "/api/games/", "/api/lobbies/", "/api/matches/live/", f"/api/matches/{match_id}/"] * 4:
            started = time.monotonic()
            status, _, _ = await asyncio.to_thread(fetch, "GET", stack.nginx.url + path, None, None, 5)
            latencies.append(time.monotonic() - started)
            assert status == 200, path
        seats = [await MatchViewer.join(f"{stack.wss}/ws/matches/{match_id}/", t) for t in tokens]
        rng = random.Random(3)
        version = await play(seats, [], lambda legal: condottiere_policy(legal, rng), limit=30)
        for seat in seats:
            await seat.ws.close()

        # nginx drops every one of them once client_header_timeout (10 s) has passed, trickling or not.
        async def dropped(reader, opened: float) -> float:
            try:
                while await reader.read(1024):
                    pass
            except ConnectionError:
                pass
            return time.monotonic() - opened

        waited = await asyncio.wait_for(asyncio.gather(*(dropped(r, t) for r, _, t in slow)), 40)
        trickling.cancel()
        for _, writer, _ in slow:
            writer.close()
        return {"latencies": latencies, "version": version, "worker_files": worker_files, "waited": waited}

    result = asyncio.run(scenario())
    print(f"slowloris: {HALF_OPEN} half-open; real requests max {max(result['latencies']) * 1000:.0f} ms; "
          f"worker fds {result['worker_files']}; dropped after {min(result['waited']):.1f}-{max(result['waited']):.1f} s")
    assert result["version"] == 30
    assert max(result["latencies"]) < 2.0, result["latencies"]
    assert max(result["worker_files"]) < 200, result["worker_files"]  # the half-open sockets stay in nginx
    # Each connection lasted its 10 s, trickling or not (the header timeout is a total, not per byte).
    assert 9.5 < min(result["waited"]) and max(result["waited"]) < 25, (min(result["waited"]), max(result["waited"]))
