"""Rate limits on every credential check, counted per real client address,
and only for real attempts (docs/api.md, Accounts: rate limits)."""

from __future__ import annotations

import os
import uuid

import pytest
from django.core import mail
from rest_framework.test import APIClient

from backend.common import mail as mail_queue
from backend.common import ratelimit
from backend.common.addresses import client_address, throttle_key
from backend.common.errors import AppError
from tests.platform.conftest import PASSWORD, csrf_client

pytestmark = pytest.mark.django_db

NEW = "a brand new secret"


@pytest.fixture
def rates(settings):
    """Small limits, so each test reaches them in a few requests."""
    settings.THROTTLE_RATES = {"login": "3/min", "signup": "2/min", "password": "3/hour", "reset": "2/hour",
                               "lobby": "3/hour"}
    return settings.THROTTLE_RATES


def _login(client, username, password):
    return client.post("/api/auth/login/", {"username": username, "password": password}, format="json")


def _signup(client, username, password=PASSWORD, **extra):
    return client.post("/api/auth/signup/", {"username": username, "password": password, **extra}, format="json")


def test_wrong_passwords_use_up_the_login_limit(rates, make_user):
    make_user("grace")
    client = csrf_client()
    assert [_login(client, "grace", "wrong").status_code for _ in range(4)] == [401, 401, 401, 429]
    r = _login(client, "grace", PASSWORD)  # the right password is not even checked now
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    assert 1 <= int(r["Retry-After"]) <= 120 and r["Retry-After"] in r.json()["message"]


def test_login_validation_failures_do_not_count(rates, make_user):
    make_user("heidi")
    client = csrf_client()
    for body in ({"username": "heidi"}, {"password": "x"}, {"username": "", "password": "x"}, {}, {"username": "heidi", "password": ""}):
        for _ in range(3):
            r = client.post("/api/auth/login/", body, format="json")
            assert r.status_code == 400, r.json()
    assert [_login(client, "heidi", "wrong").status_code for _ in range(2)] == [401, 401]
    assert _login(client, "heidi", PASSWORD).status_code == 200
    # Successes count too: three checks made. (A new client: log-in rotated the CSRF token.)
    assert _login(csrf_client(), "heidi", PASSWORD).status_code == 429


def test_failed_signup_validations_do_not_use_up_the_signup_limit(rates, make_user):
    """The issue's case: five refused sign-ups, then the valid one was refused too."""
    make_user("taken")
    client = csrf_client()
    refused = [
        _signup(client, "ingrid", "short"),
        _signup(client, "no spaces!"),
        _signup(client, "ingrid", password2="something else"),
        _signup(client, "ingrid", email="not-an-address"),
        _signup(client, "TAKEN"),  # a taken name is public anyway (lobbies show names)
        _signup(client, ""),
    ]
    assert [r.status_code for r in refused] == [400, 400, 400, 400, 409, 400]
    assert _signup(client, "ingrid").status_code == 201
    assert _signup(csrf_client(), "jonas").status_code == 201
    r = _signup(csrf_client(), "karl")
    assert r.status_code == 429 and r.json()["code"] == "rate_limited" and "Retry-After" in r


def test_a_taken_email_is_a_sign_up_like_any_other(rates, make_user):
    """Sign-up no longer tells whether an address has an account (test_signup_privacy.py): with a taken
    address it creates an account like any, and counts like any."""
    owner = make_user("owner")
    owner.email = "owner@example.org"
    owner.save()
    codes = [_signup(csrf_client(), f"probe{i}", email="owner@example.org").status_code for i in range(3)]
    assert codes == [201, 201, 429]


def test_token_and_login_share_one_limit(rates, make_user):
    make_user("lena")
    script = APIClient()
    codes = [script.post("/api/auth/token/", {"username": "lena", "password": "wrong"}, format="json").status_code
             for _ in range(2)]
    codes.append(_login(csrf_client(), "lena", "wrong").status_code)
    codes.append(script.post("/api/auth/token/", {"username": "lena", "password": PASSWORD}, format="json").status_code)
    assert codes == [401, 401, 401, 429]
    # A token asked for by an already authenticated client checks no password: not limited.
    client = APIClient()
    client.force_login(make_user())
    assert client.post("/api/auth/token/").status_code == 200


def test_password_change_counts_wrong_current_passwords_only(rates, user, client_for):
    client = client_for(user)
    refused = [client.post("/api/auth/password/", body, format="json") for body in (
        {"old_password": "wrong", "new_password": "short"},
        {"old_password": "wrong", "new_password": NEW, "new_password2": "other"},
        {"old_password": "wrong", "new_password": ""},
    ) for _ in range(2)]
    assert {r.status_code for r in refused} == {400} and all("old_password" not in r.json()["fields"] for r in refused)
    checks = [client.post("/api/auth/password/", {"old_password": "wrong", "new_password": NEW}, format="json")
              for _ in range(4)]
    assert [r.status_code for r in checks] == [400, 400, 400, 429]
    assert checks[0].json()["fields"] == {"old_password": ["Your current password is wrong."]}


def test_email_change_counts_wrong_current_passwords_only(rates, user, client_for):
    """A mistyped address is refused before the password is checked: it costs nothing, however often."""
    client = client_for(user)
    for _ in range(5):
        r = client.post("/api/auth/email/", {"password": "wrong", "email": "not an address"}, format="json")
        assert r.status_code == 400 and list(r.json()["fields"]) == ["email"]
    checks = [client.post("/api/auth/email/", {"password": "wrong", "email": "new@example.org"}, format="json")
              for _ in range(4)]
    assert [r.status_code for r in checks] == [400, 400, 400, 429]
    assert checks[0].json()["fields"] == {"old_password": ["Your current password is wrong."]}


def test_password_change_is_limited_per_account_across_addresses(rates, user, client_for):
    """A stolen session gets no more guesses at the password by changing address."""
    codes = []
    for i in range(4):
        client = client_for(user)
        codes.append(client.post("/api/auth/password/", {"old_password": "wrong", "new_password": NEW},
                                 format="json", REMOTE_ADDR=f"198.51.100.{i}").status_code)
    assert codes == [400, 400, 400, 429]


@pytest.mark.django_db(transaction=True)  # the mail thread reads the account over its own connection
def test_reset_requests_are_limited_per_address_and_quietly_per_target(rates, make_user):
    user = make_user("mona")
    user.email = "mona@example.org"
    user.save()
    client = APIClient(REMOTE_ADDR="203.0.113.1")
    # Malformed addresses are not attempts.
    assert {client.post("/api/auth/password-reset/", {"email": "nope"}, format="json").status_code
            for _ in range(5)} == {400}
    codes = [client.post("/api/auth/password-reset/", {"email": f"x{i}@example.org"}, format="json").status_code
             for i in range(3)]
    assert codes == [204, 204, 429]
    # Per target address: from fresh addresses each time, the third request answers
    # exactly like the others (nothing to learn from it) but sends nothing.
    answers = [APIClient(REMOTE_ADDR=f"203.0.113.{10 + i}").post(
        "/api/auth/password-reset/", {"email": "MONA@example.org"}, format="json") for i in range(3)]
    assert [(a.status_code, a.content) for a in answers] == [(204, b"")] * 3
    mail_queue.flush()
    assert [m.to for m in mail.outbox] == [["mona@example.org"]] * 2


def test_reset_confirm_counts_wrong_links_not_mismatched_passwords(rates):
    client = APIClient()
    body = {"uid": "MQ", "token": "nope", "new_password": NEW}
    for _ in range(4):
        r = client.post("/api/auth/password-reset/confirm/", {**body, "new_password2": "other"}, format="json")
        assert r.status_code == 400 and list(r.json()["fields"]) == ["new_password2"]
    codes = [client.post("/api/auth/password-reset/confirm/", body, format="json").status_code for _ in range(4)]
    assert codes == [400, 400, 400, 429]


def test_admin_login_is_limited_and_shares_the_login_limit(rates, django_user_model):
    admin = django_user_model.objects.create_superuser("root", password=PASSWORD)
    client = APIClient()
    assert client.get("/admin/login/").status_code == 200  # showing the form is not an attempt
    assert client.post("/admin/login/", {"username": "root", "password": ""}).status_code == 200  # nor an empty one
    codes = [client.post("/admin/login/", {"username": "root", "password": "wrong"}).status_code for _ in range(2)]
    codes.append(_login(csrf_client(), "root", "wrong").status_code)
    assert codes == [200, 200, 401]  # 200: the form again, with its error
    r = client.post("/admin/login/", {"username": "root", "password": PASSWORD, "next": "/admin/"})
    assert r.status_code == 429 and "Retry-After" in r
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302  # still sent to the log-in page
    # From another address the right password works.
    other = APIClient(REMOTE_ADDR="192.0.2.50")
    r = other.post("/admin/login/", {"username": "root", "password": PASSWORD, "next": "/admin/"})
    assert r.status_code == 302 and other.session["_auth_user_id"] == str(admin.pk)


def test_admin_password_change_is_limited(rates, django_user_model):
    admin = django_user_model.objects.create_superuser("root", password=PASSWORD)
    client = APIClient()
    client.force_login(admin)
    form = {"old_password": "wrong", "new_password1": NEW, "new_password2": NEW}
    codes = [client.post("/admin/password_change/", form).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    admin.refresh_from_db()
    assert admin.check_password(PASSWORD)


def test_spoofed_forwarded_for_changes_nothing_without_a_trusted_proxy(rates, make_user):
    make_user("nina")
    codes = [_login(csrf_client(HTTP_X_FORWARDED_FOR=f"10.0.0.{i}"), "nina", "wrong").status_code for i in range(5)]
    assert codes == [401, 401, 401, 429, 429]
    # The counter is the connection's address: another one starts afresh.
    assert _login(csrf_client(REMOTE_ADDR="192.0.2.7"), "nina", "wrong").status_code == 401
    codes = [_signup(csrf_client(HTTP_X_FORWARDED_FOR=f"10.1.0.{i}"), f"spoof{i}").status_code for i in range(3)]
    assert codes == [201, 201, 429]


def test_one_trusted_proxy_counts_the_address_it_appended(rates, settings, make_user):
    settings.TRUSTED_PROXY_COUNT = 1
    make_user("olga")

    def attempt(forwarded):
        client = csrf_client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
        return _login(client, "olga", "wrong").status_code

    # nginx appends the client's address: whatever the client wrote before it is ignored.
    codes = [attempt(f"10.9.9.{i}, 198.51.100.20") for i in range(4)]
    assert codes == [401, 401, 401, 429]
    # Every player behind the proxy is counted on their own, not all as 127.0.0.1.
    assert attempt("198.51.100.21") == 401


@pytest.mark.parametrize("proxies, forwarded, expected", [
    (0, "1.2.3.4", "192.0.2.1"),
    (1, "1.2.3.4", "1.2.3.4"),
    (1, "6.6.6.6, 1.2.3.4", "1.2.3.4"),
    (1, " 6.6.6.6 ,1.2.3.4 ", "1.2.3.4"),
    (2, "6.6.6.6, 1.2.3.4, 10.0.0.2", "1.2.3.4"),
    (2, "1.2.3.4", "1.2.3.4"),  # the outer proxy was skipped: the inner one wrote the client
    (1, "", "192.0.2.1"),
    (1, "not-an-address", "192.0.2.1"),
    (1, "2001:DB8::1", "2001:db8::1"),
])
def test_client_address(settings, proxies, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = proxies
    assert client_address({"REMOTE_ADDR": "192.0.2.1", "HTTP_X_FORWARDED_FOR": forwarded}) == expected


def test_ipv6_clients_are_counted_by_their_64_block():
    assert throttle_key("2001:db8:1:2:aaaa::1") == throttle_key("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert throttle_key("2001:db8:1:3::1") != throttle_key("2001:db8:1:2::1")
    assert throttle_key("::ffff:192.0.2.1") == throttle_key("192.0.2.1") == "192.0.2.1"


class _Clock:
    def __init__(self, now):
        self.now = now

    def time(self):
        return self.now


def test_the_window_slides(settings, monkeypatch):
    """The previous minute weighs as much as it still overlaps the last 60 s."""
    settings.THROTTLE_RATES = {"login": "10/min"}
    clock = _Clock(6_000_000.0)  # the start of a window
    monkeypatch.setattr(ratelimit, "time", clock)
    for _ in range(10):
        ratelimit.take("login", "x")
    with pytest.raises(AppError) as refused:
        ratelimit.take("login", "x")
    # Not before the previous window weighs one attempt less: 6 s into the next.
    assert refused.value.retry_after == 66
    clock.now += 60 + 30  # half-way through the next window: 10 * 0.5 still weigh
    for _ in range(5):
        ratelimit.take("login", "x")
    with pytest.raises(AppError) as refused:
        ratelimit.take("login", "x")
    assert 1 <= refused.value.retry_after <= 7  # the old window's weight falls by one every 6 s
    clock.now += refused.value.retry_after
    ratelimit.take("login", "x")
    ratelimit.take("login", "other")  # another ident has its own count


def test_a_refusal_on_one_ident_counts_nothing_on_the_others(settings):
    settings.THROTTLE_RATES = {"password": "2/hour"}
    for _ in range(2):
        ratelimit.take("password", "user:1")
    with pytest.raises(AppError):
        ratelimit.take("password", "address:a", "user:1")
    ratelimit.take("password", "address:a")
    ratelimit.take("password", "address:a")  # the refused attempt above did not count here


def test_opening_and_closing_lobbies_in_a_loop_is_limited(rates, make_user, client_for, fake_game):
    """Issue 25: 74 create-and-close cycles in 20 s from one account, each
    announced to everyone watching the lobby list.  THROTTLE_LOBBY counts
    lobbies opened per account; refusals count nothing."""
    churner, other = make_user(), make_user()
    client = client_for(churner)
    body = {"game": "counting", "options": {}, "num_seats": 2, "private": False}
    answers = []
    for _ in range(5):
        r = client.post("/api/lobbies/", body, format="json")
        answers.append(r.status_code)
        if r.status_code == 201:
            assert client.post(f"/api/lobbies/{r.json()['id']}/leave/").status_code == 200
    assert answers == [201, 201, 201, 429, 429]
    assert r.json()["code"] == "lobby_rate_limited" and r["Retry-After"] in r.json()["message"]
    assert "lobbies" in r.json()["message"]
    hungarian = client.post("/api/lobbies/", body, format="json", HTTP_ACCEPT_LANGUAGE="hu")
    assert hungarian.status_code == 429 and "lobbit nyitottál" in hungarian.json()["message"], hungarian.json()
    # A refused body (bad seats) counts nothing, and another account has its own allowance.
    assert client_for(other).post("/api/lobbies/", {**body, "num_seats": 99}, format="json").status_code == 400
    assert [client_for(other).post("/api/lobbies/", body, format="json").status_code for _ in range(3)] == [201] * 3


@pytest.mark.parametrize("text", ["10", "x/min", "10/fortnight", "0/min", "-1/min"])
def test_rates_are_parsed_strictly(text):
    with pytest.raises(ValueError):
        ratelimit.Rate.parse(text)


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="the production cache is Redis")
def test_counters_on_redis_hold_and_expire(settings):
    """The production cache: atomic counts, taken back on refusal, and every key with a lifetime."""
    import redis

    prefix = f"test-{uuid.uuid4().hex}"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": os.environ["REDIS_URL"], "KEY_PREFIX": prefix}}
    settings.THROTTLE_RATES = {"login": "3/min"}
    for _ in range(3):
        ratelimit.take("login", "203.0.113.9")
    for _ in range(2):
        with pytest.raises(AppError):
            ratelimit.take("login", "203.0.113.9")
    ratelimit.take("login", "203.0.113.10")
    server = redis.Redis.from_url(os.environ["REDIS_URL"])
    keys = server.keys(f"{prefix}:*")
    try:
        assert len(keys) == 2 and sorted(int(server.get(k)) for k in keys) == [1, 3]  # refusals left no trace
        assert all(0 < server.ttl(k) <= 121 for k in keys)
    finally:
        server.delete(*keys)
