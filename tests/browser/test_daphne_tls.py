"""The web app served by Daphne's own TLS, without nginx (issue 25): the
page is https, so Chromium's sockets say `Origin: https://...`, which the
origin check once refused on every socket (Daphne's scope has no scheme)."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.support.servers import Daphne, free_port, manage, server_env

from .support import DESKTOP, Client

MATCH = """
import json
from django.contrib.auth import get_user_model
from backend.matches.services import create_match
user = get_user_model().objects.get(username=%r)
print(json.dumps(create_match("condottiere", {}, [user, "heuristic", "heuristic"], 7, True).pk))
"""


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tls-server")
    key, cert = tmp / "key.pem", tmp / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
    env = server_env(f"sqlite:///{tmp / 'db.sqlite3'}", REDIS_URL="", BOT_DELAY="0.05", THROTTLE_SIGNUP="1000/min",
                     THROTTLE_LOGIN="1000/min", DJANGO_PRODUCTION="", DJANGO_DEBUG="0", LOG_LEVEL="WARNING")
    manage(env, "migrate", "--noinput", "-v0")
    port = free_port()
    argv = ["-e", f"ssl:{port}:interface=127.0.0.1:privateKey={key}:certKey={cert}", "backend.asgi:application"]
    with Daphne(env, port, tmp / "daphne.log", argv):
        yield env, f"https://127.0.0.1:{port}"


def test_a_match_loads_over_daphnes_own_tls(browser, tls_server, screenshots):
    env, base = tls_server
    # A service worker refuses a self-signed certificate whatever the context says: none here.
    client = Client(browser, base, DESKTOP, ignore_https_errors=True, service_workers="block")
    try:
        name = client.signup("tls")
        match_id = json.loads(manage(env, "shell", "-c", MATCH % name).strip().splitlines()[-1])
        client.goto(f"/match/{match_id}")
        client.page.wait_for_selector("[data-testid=table][data-version]")
        client.page.screenshot(path=str(screenshots / "daphne-tls-match.png"))
        refusals = [f for f in client.frames if json.loads(f).get("type") == "error"]
        assert refusals == [] and client.errors == [], (refusals, client.errors)
    finally:
        client.close()
