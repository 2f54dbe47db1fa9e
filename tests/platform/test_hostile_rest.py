"""A hostile client on the REST API: every endpoint, every method, malformed
and ill-typed bodies, odd query strings and ids.  Never a 500; every error is
{"code", "message"} with a documented code and its HTTP status (docs/api.md)."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from backend.common.errors import STATUS
from backend.lobbies import services as lobbies
from backend.matches import services as matches

pytestmark = pytest.mark.django_db

NASTY = [None, True, 1.5, -1, 0, 10**30, "", "x" * 20_000, "\u0000", "a\u0000b", "\ud800", "é", "\u202e", [], [1],
         {}, {"\ud800": 1}, {"a": {"b": [1]}}]
RAW = ["", "{", "}", "[]", "null", "1", '"x"', "NaN", '{"a": NaN}', "1" * 5000, "[" * 5000, '{"a":' * 3000,
       '{"username": "\\ud800", "password": "\\udfff"}', '{"game": "\\u0000"}', '{"options": {"\\ud800": 1}}',
       '{"code": "\\u00e9"}', '{"code": "\\ud800"}', '{"user_id": 1e400}', '{"bot": ["random"]}']
QUERIES = ["?code=%C3%A9", "?code=%00", "?code=%ED%A0%80", "?code=" + "x" * 5000, "?status=%00", "?status=%C3%A9",
           "?mine=1", "?mine=%00", "?status=active&status=finished", "?code=a&code=b"]
HUGE = 10**20


@pytest.fixture
def world(make_user):
    host, guest = make_user(), make_user()
    private = lobbies.create_lobby(host, "condottiere", {}, 3, True)
    public = lobbies.create_lobby(host, "condottiere", {}, 3, False)
    match = matches.create_match("condottiere", {}, [host, guest, "random"], 12345, True)
    hidden = matches.create_match("condottiere", {}, [host, guest, "random"], 54321, False)
    return host, guest, private, public, match, hidden


def _paths(private, public, match, hidden) -> tuple[list[str], dict[str, list[str]]]:
    """Every path to read, and the paths that take a body with the fields they read."""
    credentials = ["username", "password"]
    posts = {"/api/auth/signup/": credentials, "/api/auth/login/": credentials, "/api/auth/token/": credentials,
             "/api/auth/logout/": [], "/api/auth/password/": ["old_password", "new_password", "new_password2"],
             "/api/auth/email/": ["password", "email"], "/api/auth/password-reset/": ["email"],
             "/api/auth/password-reset/confirm/": ["uid", "token", "new_password", "new_password2"],
             "/api/lobbies/": ["game", "options", "num_seats", "private"],
             "/api/notifications/devices/": ["endpoint", "keys", "label"]}
    reads = ["/api/auth/csrf/", "/api/auth/me/", "/api/games/", "/api/lobbies/", "/api/matches/",
             "/api/matches/live/", "/api/no-such-thing/", "/api/lobbies/x/", "/api/notifications/",
             "/api/notifications/devices/1/", f"/api/notifications/devices/{HUGE}/"]
    for lobby in (private.pk, public.pk, HUGE, 0):
        reads.append(f"/api/lobbies/{lobby}/")
        reads += [f"/api/lobbies/{lobby}/bots/{i}/" for i in (1, HUGE)]
        for action, fields in (("join", ["code"]), ("leave", []), ("kick", ["user_id"]), ("bots", ["bot"]),
                               ("start", [])):
            posts[f"/api/lobbies/{lobby}/{action}/"] = fields
    for m in (match.pk, hidden.pk, HUGE, 0):
        reads += [f"/api/matches/{m}/", f"/api/matches/{m}/events/"]
    return reads + list(posts), posts


def _problems(response, what: str) -> list[str]:
    """Why this response breaks the contract, if it does."""
    status = response.status_code
    if status >= 500:
        return [f"{what}: HTTP {status}"]
    if status < 400 or not response.content:
        return []
    try:
        body = json.loads(response.content)
    except ValueError:
        return [f"{what}: HTTP {status} with a body that is not JSON: {response.content[:80]!r}"]
    if not (isinstance(body, dict) and isinstance(body.get("code"), str) and isinstance(body.get("message"), str)
            and body["message"]):
        return [f"{what}: HTTP {status} error body {body!r:.120}"]
    code = body["code"]
    if code not in STATUS:
        return [f"{what}: undocumented code {code!r}"]
    if status != STATUS[code] and not (code == "bad_message" and status in (405, 406, 415)):
        return [f"{what}: code {code} with HTTP {status}"]
    return []


def _fuzz(client: APIClient, paths: list[str], posts: dict[str, list[str]]) -> list[str]:
    problems = []
    for path in paths:
        problems += _problems(client.get(path), f"GET {path}")
        for query in QUERIES:
            problems += _problems(client.get(path + query), f"GET {path}{query}")
        problems += _problems(client.options(path), f"OPTIONS {path}")
        problems += _problems(client.head(path), f"HEAD {path}")
        for method in ("post", "put", "patch", "delete"):
            send = getattr(client, method)
            bodies = list(RAW) if method == "post" else RAW[:4]
            if method == "post" and path in posts:
                bodies += [json.dumps({field: value}) for field in posts[path] + ["unknown"] for value in NASTY]
            for body in bodies:
                problems += _problems(send(path, body, content_type="application/json"),
                                      f"{method.upper()} {path} {body[:60]!r}")
            for body, ctype in ((b"\xff\xfe{", "application/json"), (b"a=%ff&b", "application/x-www-form-urlencoded"),
                                (b"<x/>", "application/xml"), (b"--x\r\n", "multipart/form-data; boundary=x"),
                                (b"{}", "text/plain")):
                problems += _problems(send(path, body, content_type=ctype), f"{method.upper()} {path} {ctype}")
    return problems


@pytest.mark.parametrize("who", ["anonymous", "host", "guest"])
def test_no_endpoint_answers_500_or_an_undocumented_error(world, who, settings):
    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    host, guest, private, public, match, hidden = world
    client = APIClient(raise_request_exception=False) if who == "anonymous" else _as({"host": host, "guest": guest}[who])
    problems = _fuzz(client, *_paths(private, public, match, hidden))
    assert not problems, f"{len(problems)} problems, e.g.:\n" + "\n".join(sorted(set(problems))[:40])


def _as(user) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(user)
    return client


def test_deeply_nested_json_body_is_bad_message(user):
    """DRF's JSONParser catches ValueError only; json.loads raises RecursionError past ~1000 levels."""
    for body in ("[" * 5000, '{"a":' * 3000):
        answer = _as(user).post("/api/lobbies/", body, content_type="application/json")
        assert answer.status_code == 400 and answer.json()["code"] == "bad_message", answer.content[:200]


def test_an_invite_code_that_is_not_ascii_is_simply_wrong(make_user):
    """secrets.compare_digest refuses non-ASCII str: the code must still just be wrong (forbidden)."""
    host, guest = make_user(), make_user()
    lobby = lobbies.create_lobby(host, "condottiere", {}, 3, True)
    for code in ("é", "\u00e9" * 12, "\U0001f600"):
        answer = APIClient(raise_request_exception=False).get(f"/api/lobbies/{lobby.pk}/", {"code": code})
        assert (answer.status_code, answer.json()["code"]) == (403, "forbidden")
        joined = _as(guest).post(f"/api/lobbies/{lobby.pk}/join/", {"code": code}, format="json")
        assert (joined.status_code, joined.json()["code"]) == (403, "forbidden")
    assert lobbies.load(lobby.pk).seats.count() == 1


def test_option_names_that_cannot_be_encoded_are_bad_message(user):
    """The engine names unknown options in its message; a lone surrogate there
    cannot be rendered as UTF-8 JSON."""
    response = _as(user).post("/api/lobbies/", '{"game": "condottiere", "num_seats": 3, "options": {"\\ud800": 1}}',
                           content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "bad_message", response.content[:200]
