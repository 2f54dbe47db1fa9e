"""Accounts over REST: sign-up, log-in, CSRF, tokens, throttling, error codes (docs/api.md)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from tests.platform.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _csrf_client():
    """A browser-like client: CSRF enforced, token taken from GET /api/auth/csrf/."""
    client = APIClient(enforce_csrf_checks=True)
    assert client.get("/api/auth/csrf/").status_code == 204
    client.credentials(HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    return client


def test_signup_logs_in_and_me_answers():
    client = _csrf_client()
    r = client.post("/api/auth/signup/", {"username": "Alice", "password": PASSWORD}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["username"] == "Alice"
    me = client.get("/api/auth/me/")
    assert me.status_code == 200 and me.json() == r.json()


def test_usernames_are_unique_whatever_the_case(make_user):
    make_user("Alice")
    client = _csrf_client()
    r = client.post("/api/auth/signup/", {"username": "aLICE", "password": PASSWORD}, format="json")
    assert r.status_code == 409
    assert r.json()["code"] == "conflict"
    assert "username" in r.json()["fields"]


def test_database_refuses_a_case_variant_even_past_the_service(make_user, django_user_model):
    make_user("Bob")
    with pytest.raises(IntegrityError), transaction.atomic():
        django_user_model.objects.create_user(username="BOB", password=PASSWORD)


def test_weak_password_is_refused_by_django_validators():
    client = _csrf_client()
    r = client.post("/api/auth/signup/", {"username": "carol", "password": "12345678"}, format="json")
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "bad_message" and "password" in body["fields"]


@pytest.mark.parametrize("payload", [{"username": "dave"}, {"password": PASSWORD}, {"username": "no spaces!", "password": PASSWORD}])
def test_malformed_signup_is_bad_message(payload):
    r = _csrf_client().post("/api/auth/signup/", payload, format="json")
    assert r.status_code == 400 and r.json()["code"] == "bad_message" and r.json()["message"]


def test_invalid_json_is_bad_message():
    r = _csrf_client().post("/api/auth/signup/", "{not json", content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] == "bad_message"


def test_login_ignores_username_case_and_logout_ends_the_session(make_user):
    make_user("Erin")
    client = _csrf_client()
    r = client.post("/api/auth/login/", {"username": "erin", "password": PASSWORD}, format="json")
    assert r.status_code == 200 and r.json()["username"] == "Erin"
    # Django rotates the CSRF token at log-in.
    client.credentials(HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    assert client.post("/api/auth/logout/").status_code == 204
    r = client.get("/api/auth/me/")
    assert r.status_code == 401 and r.json()["code"] == "unauthenticated"


def test_wrong_password_is_unauthenticated(make_user):
    make_user("frank")
    r = _csrf_client().post("/api/auth/login/", {"username": "frank", "password": "wrong"}, format="json")
    assert r.status_code == 401 and r.json() == {"code": "unauthenticated", "message": "Wrong username or password."}


def test_session_clients_need_the_csrf_token(make_user):
    user = make_user()
    client = APIClient(enforce_csrf_checks=True)
    # Log-in itself is CSRF-protected (no login CSRF).
    r = client.post("/api/auth/login/", {"username": user.username, "password": PASSWORD}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "forbidden"
    client.force_login(user)
    r = client.post("/api/auth/logout/")
    assert r.status_code == 403 and r.json()["code"] == "forbidden" and "CSRF" in r.json()["message"]
    assert client.get("/api/auth/me/").status_code == 200  # still logged in
    client.get("/api/auth/csrf/")
    client.credentials(HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    assert client.post("/api/auth/logout/").status_code == 204


def test_change_password(logged_in, user):
    r = logged_in.post("/api/auth/password/", {"old_password": "nope", "new_password": "a brand new secret"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "bad_message"
    r = logged_in.post("/api/auth/password/", {"old_password": PASSWORD, "new_password": "short"}, format="json")
    assert r.status_code == 400 and "password" in r.json()["fields"]
    r = logged_in.post("/api/auth/password/", {"old_password": PASSWORD, "new_password": "a brand new secret"}, format="json")
    assert r.status_code == 204
    assert logged_in.get("/api/auth/me/").status_code == 200  # the session survives its own change
    user.refresh_from_db()
    assert user.check_password("a brand new secret")


def test_token_auth_for_scripts(make_user):
    user = make_user()
    script = APIClient(enforce_csrf_checks=True)
    r = script.post("/api/auth/token/", {"username": user.username, "password": PASSWORD}, format="json")
    assert r.status_code == 200
    token = r.json()["token"]
    script.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert script.get("/api/auth/me/").json()["username"] == user.username
    # Token clients need no CSRF token for unsafe methods.
    assert script.post("/api/auth/token/").json() == {"token": token}
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    r = bad.get("/api/auth/me/")
    assert r.status_code == 401 and r.json()["code"] == "unauthenticated"


def test_password_change_revokes_the_token(make_user):
    user = make_user()
    script = APIClient()
    token = script.post("/api/auth/token/", {"username": user.username, "password": PASSWORD}, format="json").json()["token"]
    script.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    r = script.post("/api/auth/password/", {"old_password": PASSWORD, "new_password": "a brand new secret"}, format="json")
    assert r.status_code == 204
    assert script.get("/api/auth/me/").status_code == 401


def test_token_without_credentials_needs_login():
    r = APIClient().post("/api/auth/token/")
    assert r.status_code == 401 and r.json()["code"] == "unauthenticated"


def test_login_is_throttled(make_user, settings):
    make_user("grace")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"login": "3/min", "signup": "2/min"}}
    client = _csrf_client()
    codes = [client.post("/api/auth/login/", {"username": "grace", "password": "wrong"}, format="json").status_code
             for _ in range(4)]
    assert codes == [401, 401, 401, 429]
    r = client.post("/api/auth/login/", {"username": "grace", "password": PASSWORD}, format="json")
    assert r.status_code == 429 and r.json()["code"] == "rate_limited" and int(r["Retry-After"]) >= 1


def test_signup_is_throttled(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"login": "3/min", "signup": "2/min"}}
    codes = []
    for i in range(3):
        # A new browser each time: the throttle counts by address, not by session.
        codes.append(_csrf_client().post("/api/auth/signup/", {"username": f"user{i}", "password": PASSWORD}, format="json").status_code)
    assert codes == [201, 201, 429]


def test_schema_describes_the_auth_endpoints():
    r = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert r.status_code == 200
    paths = r.json()["paths"]
    for p in ("signup", "login", "logout", "me", "password", "token", "csrf"):
        assert f"/api/auth/{p}/" in paths
