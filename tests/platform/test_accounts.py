"""Accounts over REST: sign-up, log-in, CSRF, tokens, password and e-mail changes, error codes (docs/api.md).

Throttling: test_throttles.py; password reset: test_password_reset.py; names: test_usernames.py."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from backend.accounts.models import fold
from tests.platform.conftest import PASSWORD
from tests.platform.conftest import csrf_client as _csrf_client

pytestmark = pytest.mark.django_db




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


def test_signup_checks_every_field_at_once_and_words_its_message():
    r = _csrf_client().post("/api/auth/signup/", {"username": "no spaces!", "password": "123", "password2": "1234",
                                                   "email": "not-an-address"}, format="json")
    body = r.json()
    assert r.status_code == 400 and body["code"] == "bad_message"
    assert set(body["fields"]) == {"username", "password", "password2", "email"}
    assert body["fields"]["password2"] == ["The two passwords differ."]
    # The message is the fields' first sentences as prose, never "password: ..." or "password2: ...".
    assert ":" not in body["message"].split(".")[0]
    for sentences in body["fields"].values():
        assert sentences[0] in body["message"]


@pytest.mark.parametrize("language, sentences", [
    ("en", {"username": "A username may hold only letters, digits and the signs @ . + - _ (no spaces).",
            "email": "That is not a whole e-mail address; it looks like name@example.org.",
            "password": "A password of digits only is easy to guess: put letters in it too."}),
    ("hu", {"username": "A felhasználónévben csak betű, számjegy és a @ . + - _ jelek lehetnek (szóköz nem).",
            "email": "Ez nem teljes e-mail-cím; így néz ki: nev@example.org.",
            "password": "A csak számjegyekből álló jelszót könnyű kitalálni: tegyél bele betűket is."}),
])
def test_name_and_address_errors_are_the_site_s_own_plain_words(language, sentences):
    """Django's own sentences cite "@/./+/-/_" and speak formally in Hungarian; the site words them plainly."""
    r = _csrf_client().post("/api/auth/signup/", {"username": "no spaces!", "password": "80417263951", "email": "nope"},
                            format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 400
    assert r.json()["fields"] == {field: [sentence] for field, sentence in sentences.items()}
    long_name = _csrf_client().post("/api/auth/signup/", {"username": "n" * 151, "password": PASSWORD}, format="json")
    assert long_name.json()["fields"] == {"username": ["A username may be at most 150 characters long."]}


@pytest.mark.parametrize("payload, field, sentence", [
    ({"password": PASSWORD}, "username", "Choose a username."),
    ({"username": "dora"}, "password", "Choose a password."),
    ({"username": "dora", "password": PASSWORD, "password2": ""}, "password2", "The two passwords differ."),
])
def test_a_single_signup_error_is_the_message(payload, field, sentence):
    r = _csrf_client().post("/api/auth/signup/", payload, format="json")
    assert r.status_code == 400
    assert r.json() == {"code": "bad_message", "message": sentence, "fields": {field: [sentence]}}


def test_signup_with_confirmation_and_email():
    client = _csrf_client()
    r = client.post("/api/auth/signup/", {"username": "Hedda", "password": PASSWORD, "password2": PASSWORD,
                                          "email": "  Hedda.Gabler@Example.ORG "}, format="json")
    assert r.status_code == 201, r.json()
    # Django's normalisation: the domain in lower case, the local part as typed. The address waits for
    # its owner to open the mailed link (tests/platform/test_signup_privacy.py).
    assert (r.json()["email"], r.json()["email_pending"]) == ("", "Hedda.Gabler@example.org")
    assert client.get("/api/auth/me/").json() == r.json()


def test_email_is_optional_and_unique_whatever_the_case(make_user, django_user_model):
    assert _csrf_client().post("/api/auth/signup/", {"username": "ivo", "password": PASSWORD},
                               format="json").json()["email"] == ""
    assert _csrf_client().post("/api/auth/signup/", {"username": "ivan", "password": PASSWORD, "email": ""},
                               format="json").status_code == 201  # two accounts without an address
    owner = make_user("jan")
    owner.email = "Odon@PÉLDA.hu"
    owner.save()
    # Another spelling of an address in use: the sign-up goes through without telling, and the address
    # stays its owner's (the owner is mailed: tests/platform/test_signup_privacy.py).
    r = _csrf_client().post("/api/auth/signup/", {"username": "kata", "password": PASSWORD,
                                                  "email": "ODON@példa.HU"}, format="json")
    assert r.status_code == 201 and (r.json()["email"], r.json()["email_pending"]) == ("", "ODON@példa.hu")
    assert django_user_model.objects.get(username="kata").email_key is None
    with pytest.raises(IntegrityError):  # and the database keeps addresses unique whatever the case
        with transaction.atomic():
            django_user_model.objects.filter(username="kata").update(email_key=fold("Odon@PÉLDA.hu"))


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
    assert r.status_code == 400 and list(r.json()["fields"]) == ["new_password"]
    r = logged_in.post("/api/auth/password/", {"old_password": PASSWORD, "new_password": "a brand new secret",
                                               "new_password2": "a brand new secreT"}, format="json")
    assert r.status_code == 400 and r.json()["fields"] == {"new_password2": ["The two passwords differ."]}
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


def test_change_email_needs_the_password(logged_in, user, make_user):
    r = logged_in.post("/api/auth/email/", {"password": "wrong", "email": "me@example.org"}, format="json")
    assert r.status_code == 400 and list(r.json()["fields"]) == ["old_password"]
    r = logged_in.post("/api/auth/email/", {"password": PASSWORD, "email": "nope"}, format="json")
    assert r.status_code == 400 and list(r.json()["fields"]) == ["email"]
    r = logged_in.post("/api/auth/email/", {"password": PASSWORD, "email": "Me@Example.org"}, format="json")
    assert r.status_code == 200 and r.json() == {"id": user.pk, "username": user.username, "email": "",
                                                 "email_pending": "Me@example.org", "language": "en"}
    user.email = "Me@example.org"  # as the mailed link would (test_signup_privacy.py)
    user.save()
    other = make_user()
    taken = APIClient()
    taken.force_login(other)
    r = taken.post("/api/auth/email/", {"password": PASSWORD, "email": "ME@EXAMPLE.ORG"}, format="json")
    assert r.status_code == 200 and r.json()["email_pending"] == "ME@example.org"  # no telling it is taken
    r = logged_in.post("/api/auth/email/", {"password": PASSWORD, "email": ""}, format="json")
    assert r.status_code == 200 and r.json()["email"] == ""
    user.refresh_from_db()
    assert user.email == "" and user.email_key is None


def test_token_without_credentials_needs_login():
    r = APIClient().post("/api/auth/token/")
    assert r.status_code == 401 and r.json()["code"] == "unauthenticated"


def test_schema_describes_the_auth_endpoints():
    r = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert r.status_code == 200
    paths = r.json()["paths"]
    for p in ("signup", "login", "logout", "me", "password", "email", "email/confirm", "password-reset",
              "password-reset/check", "password-reset/confirm", "token", "csrf"):
        assert f"/api/auth/{p}/" in paths
