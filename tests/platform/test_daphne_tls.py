"""Where Daphne listens, read from its command line (backend/common/daphne_tls.py),
and what the origin check and the deploy check make of it (issue 25, items 1 and 7)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.core.checks import registry

from backend.common import checks, daphne_tls, ws_origin
from backend.common.daphne_tls import Endpoint
from tests.support.servers import ROOT, Daphne, free_port, server_env


@pytest.mark.parametrize("argv,expected", [
    (["backend.asgi:application"], [Endpoint("tcp", 8000, "127.0.0.1")]),
    (["--bind", "127.0.0.1", "--port", "8001", "--proxy-headers", "--verbosity", "0", "backend.asgi:application"],
     [Endpoint("tcp", 8001, "127.0.0.1")]),
    (["-b", "0.0.0.0", "app"], [Endpoint("tcp", 8000, "0.0.0.0")]),
    (["-e", r"ssl:8443:interface=127.0.0.1:privateKey=/etc/k\:1.pem:certKey=c.pem", "app"],
     [Endpoint("ssl", 8443, "127.0.0.1")]),
    (["--endpoint=ssl:port=443:privateKey=k.pem", "-u", "/run/g.sock", "app"],
     [Endpoint("ssl", 443, ""), Endpoint("unix", None, "")]),
    (["-e", "tcp:8000", "-e", "ssl:8443:privateKey=k.pem", "app"],
     [Endpoint("tcp", 8000, ""), Endpoint("ssl", 8443, "")]),
])
def test_endpoints_as_daphnes_cli_decides_them(argv, expected):
    assert daphne_tls.endpoints(argv) == expected


def test_only_a_daphne_command_line_counts():
    assert daphne_tls.daphne_argv(["/srv/games/venv/bin/daphne", "-p", "1"]) == ["-p", "1"]
    assert daphne_tls.daphne_argv(["/usr/lib/python3/site-packages/daphne/__main__.py", "app"]) == ["app"]
    assert daphne_tls.daphne_argv(["manage.py", "-e", "ssl:1:privateKey=k"]) is None
    assert daphne_tls.daphne_argv([]) is None


def test_reading_the_command_line_does_not_install_twisteds_reactor():
    """backend/asgi.py takes an installed reactor to mean Daphne is running."""
    code = "import sys, backend.common.daphne_tls as d; d.endpoints(['-e', 'ssl:1:privateKey=k', 'a']); " \
           "print('twisted.internet.reactor' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _scope(port: int, *headers: tuple[bytes, bytes]) -> dict:
    return {"type": "websocket", "server": ["127.0.0.1", port],
            "headers": [(b"host", f"127.0.0.1:{port}".encode()), *headers]}


def test_a_tls_port_makes_the_handshake_https(monkeypatch, settings):
    monkeypatch.setattr(daphne_tls, "own_endpoints", lambda: (Endpoint("ssl", 8443, ""), Endpoint("tcp", 8000, "")))
    assert ws_origin.origin_allowed(_scope(8443, (b"origin", b"https://127.0.0.1:8443")))
    assert not ws_origin.origin_allowed(_scope(8443, (b"origin", b"http://127.0.0.1:8443")))
    assert ws_origin.origin_allowed(_scope(8000, (b"origin", b"http://127.0.0.1:8000")))
    assert not ws_origin.origin_allowed(_scope(8000, (b"origin", b"https://127.0.0.1:8000")))


@pytest.mark.parametrize("proxies,allowed", [(0, False), (1, True)])
def test_x_forwarded_proto_counts_only_from_a_trusted_proxy(settings, proxies, allowed):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.TRUSTED_PROXY_COUNT = proxies
    scope = _scope(8001, (b"origin", b"https://127.0.0.1:8001"), (b"x-forwarded-proto", b"https"))
    assert ws_origin.origin_allowed(scope) is allowed


def _ids(argv: list[str], proxies: int) -> list[str]:
    return [w.id for w in checks.exposure_warnings(daphne_tls.endpoints(argv), proxies)]


def test_the_deploy_check_warns_when_daphne_faces_the_internet_bare():
    """Issue 25 item 7: bare Daphne never times out a slow client (deploy/README.md)."""
    assert _ids(["-b", "127.0.0.1", "-p", "8001", "app"], 1) == []  # the shipped unit behind nginx
    assert _ids(["-b", "::1", "-p", "8001", "app"], 0) == []
    assert _ids(["-u", "/run/games.sock", "app"], 0) == []
    assert _ids(["-b", "0.0.0.0", "-p", "80", "app"], 0) == ["games.W001"]
    assert _ids(["-e", "ssl:443:privateKey=k.pem", "app"], 0) == ["games.W001"]
    assert _ids(["-b", "0.0.0.0", "-p", "8001", "app"], 1) == ["games.W002"]


def test_the_check_is_a_deploy_check_and_the_worker_logs_it(tmp_path):
    """`check --deploy` runs it (silent outside Daphne: nothing listens); a
    worker bound to every address logs it when it starts."""
    assert checks.daphne_exposure in registry.registry.get_checks(include_deployment_checks=True)
    assert checks.daphne_exposure not in registry.registry.get_checks(include_deployment_checks=False)
    port = free_port()
    log = tmp_path / "daphne.log"
    env = server_env(f"sqlite:///{tmp_path / 'db.sqlite3'}", TRUSTED_PROXY_COUNT="0")
    with Daphne(env, port, log, ["-b", "0.0.0.0", "-p", str(port), "backend.asgi:application"]):
        pass
    assert "games.W001" in log.read_text()
