"""Password reset by e-mail, end to end with Django's locmem e-mail backend
(pytest-django installs it): ask, read the mail, open the link, set a password."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from rest_framework.test import APIClient

from backend.common import mail as mail_queue
from tests.platform.conftest import PASSWORD, csrf_client

# The mail thread looks the account up over its own connection: it must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

NEW = "a brand new secret"
LINK = re.compile(r"http://testserver/reset/(?P<uid>[^/\s]+)/(?P<token>[^/\s]+)")


@pytest.fixture
def mona(make_user):
    user = make_user("Mona")
    user.email = "Mona.Lisa@example.org"
    user.save()
    return user


def _ask(email, client=None):
    answer = (client or APIClient()).post("/api/auth/password-reset/", {"email": email}, format="json")
    mail_queue.flush()
    return answer


def _link(message):
    found = LINK.search(message.body)
    assert found, message.body
    return found["uid"], found["token"]


def _confirm(uid, token, password=NEW, password2=NEW):
    body = {"uid": uid, "token": token, "new_password": password}
    if password2 is not None:
        body["new_password2"] = password2
    return APIClient().post("/api/auth/password-reset/confirm/", body, format="json")


def test_reset_end_to_end(mona):
    browser = csrf_client()
    assert browser.post("/api/auth/login/", {"username": "mona", "password": PASSWORD}, format="json").status_code == 200
    token = APIClient().post("/api/auth/token/", {"username": "mona", "password": PASSWORD}, format="json").json()["token"]

    answer = _ask("MONA.LISA@EXAMPLE.ORG")  # any case of the address
    assert answer.status_code == 204 and answer.content == b""
    [message] = mail.outbox
    assert message.to == ["Mona.Lisa@example.org"]
    assert message.subject == "Choose a new password for testserver"
    assert "Hello Mona," in message.body and "72 hours" in message.body
    uid, reset_token = _link(message)

    # The link is an address of the app: the server answers it with the app shell.
    page = APIClient().get(f"/reset/{uid}/{reset_token}")
    assert page.status_code == 200 and b'id="boot"' in page.content

    assert _confirm(uid, reset_token).status_code == 204
    mona.refresh_from_db()
    assert mona.check_password(NEW) and not mona.check_password(PASSWORD)
    # The old password, the old API token and the sessions opened with the old password are all dead.
    assert csrf_client().post("/api/auth/login/", {"username": "mona", "password": PASSWORD},
                              format="json").status_code == 401
    assert APIClient(HTTP_AUTHORIZATION=f"Token {token}").get("/api/auth/me/").status_code == 401
    assert browser.get("/api/auth/me/").status_code == 401
    assert csrf_client().post("/api/auth/login/", {"username": "mona", "password": NEW},
                              format="json").status_code == 200
    # The link works once.
    again = _confirm(uid, reset_token, "yet another secret", "yet another secret")
    assert again.status_code == 400 and list(again.json()["fields"]) == ["token"]


def test_the_answer_is_the_same_for_unknown_addresses(mona, make_user):
    known = _ask("mona.lisa@example.org")
    unknown = _ask("nobody@example.org")
    assert (known.status_code, known.content) == (unknown.status_code, unknown.content) == (204, b"")
    assert len(mail.outbox) == 1
    # Nor is a mail sent for an inactive account, or one without a usable password.
    for name, change in (("inactive", {"is_active": False}), ("unusable", {})):
        user = make_user(name)
        user.email = f"{name}@example.org"
        if change:
            user.is_active = False
        else:
            user.set_unusable_password()
        user.save()
        assert _ask(f"{name}@example.org").status_code == 204
    assert len(mail.outbox) == 1


@pytest.mark.parametrize("email, sentence", [("", "Type the e-mail address of your account."),
                                             ("not an address", "That is not a whole e-mail address; it looks like name@example.org.")])
def test_a_malformed_address_is_a_field_error(email, sentence):
    r = _ask(email)
    assert r.status_code == 400 and r.json() == {"code": "bad_message", "message": sentence, "fields": {"email": [sentence]}}


def test_new_password_is_validated_before_the_link_is_used(mona):
    _ask("mona.lisa@example.org")
    uid, token = _link(mail.outbox[0])
    r = _confirm(uid, token, NEW, NEW + "!")
    assert r.status_code == 400 and r.json()["fields"] == {"new_password2": ["The two passwords differ."]}
    r = _confirm(uid, token, "12345678", "12345678")
    assert r.status_code == 400 and list(r.json()["fields"]) == ["new_password"]
    r = _confirm(uid, token, "mona.lisa@example", "mona.lisa@example")  # too like the account's own address
    assert r.status_code == 400 and list(r.json()["fields"]) == ["new_password"]
    assert _confirm(uid, token, NEW, None).status_code == 204  # the confirmation is optional; the link still worked


@pytest.mark.parametrize("uid", ["", "!!!", "OTk5OTk5", "OTk5OTk5OTk5OTk5OTk5OTk5OTk5OTk5", "w6k", "LTE", "MSAg"])
def test_a_wrong_link_is_a_field_error_never_a_crash(mona, uid):
    _ask("mona.lisa@example.org")
    _real_uid, token = _link(mail.outbox[0])
    r = _confirm(uid, token)
    assert r.status_code == 400 and r.json()["code"] == "bad_message"
    assert set(r.json()["fields"]) <= {"uid", "token"}
    mona.refresh_from_db()
    assert mona.check_password(PASSWORD)


def _check(uid, token):
    return APIClient().post("/api/auth/password-reset/check/", {"uid": uid, "token": token}, format="json")


def test_a_link_says_whether_it_works_before_the_form(mona, settings):
    """The page checks the link on opening: a used or expired one says so before anyone types a password."""
    _ask("mona.lisa@example.org")
    uid, token = _link(mail.outbox[0])
    assert _check(uid, token).status_code == 204
    assert _check(uid, token).status_code == 204  # checking does not use it up
    assert _confirm(uid, token).status_code == 204
    used = _check(uid, token)
    assert used.status_code == 400 and used.json()["code"] == "bad_message"
    assert used.json()["fields"] == {"token": ["This password reset link is wrong, used or expired. Ask for a new one."]}
    _ask("mona.lisa@example.org")
    uid, token = _link(mail.outbox[1])
    settings.PASSWORD_RESET_TIMEOUT = -1
    assert _check(uid, token).json()["fields"]["token"]
    hu = APIClient(HTTP_ACCEPT_LANGUAGE="hu").post("/api/auth/password-reset/check/", {"uid": uid, "token": token},
                                                   format="json")
    assert hu.json()["fields"]["token"] == ["Ez a jelszó-visszaállító link hibás, már felhasználták, vagy lejárt. "
                                            "Kérj újat."]


def test_checking_links_counts_against_the_password_limit(mona):
    """A check tries a secret like a confirmation does: THROTTLE_PASSWORD (10/hour) counts both."""
    _ask("mona.lisa@example.org")
    uid, token = _link(mail.outbox[0])
    answers = [_check(uid, token + "x").status_code for _ in range(11)]
    assert answers[:10] == [400] * 10 and answers[10] == 429, answers


def test_a_wrong_token_is_refused(mona):
    _ask("mona.lisa@example.org")
    uid, token = _link(mail.outbox[0])
    for wrong in (token[:-1], token + "x", "", "x" * 200, "\u00e9"):
        r = _confirm(uid, wrong)
        assert r.status_code == 400 and set(r.json()["fields"]) == {"token"}, wrong
    mona.refresh_from_db()
    assert mona.check_password(PASSWORD)


def test_an_expired_link_is_refused(mona, settings):
    _ask("mona.lisa@example.org")
    uid, token = _link(mail.outbox[0])
    settings.PASSWORD_RESET_TIMEOUT = -1  # any link is older than that
    r = _confirm(uid, token)
    assert r.status_code == 400
    assert r.json()["fields"] == {"token": ["This password reset link is wrong, used or expired. Ask for a new one."]}


def test_changing_the_address_kills_a_pending_link(mona, client_for):
    client = client_for(mona)  # logged in first: a log-in (last_login) ends a link too
    _ask("mona.lisa@example.org")
    uid, token = _link(mail.outbox[0])
    assert client.post("/api/auth/email/", {"password": PASSWORD, "email": "mona@example.org"},
                       format="json").status_code == 200
    mail_queue.flush()
    assert _check(uid, token).status_code == 204  # the new address waits for its link: nothing changed yet
    confirm = re.search(r"/confirm-email/(\S+)", mail.outbox[1].body).group(1)
    assert APIClient().post("/api/auth/email/confirm/", {"token": confirm}, format="json").status_code == 200
    assert _check(uid, token).status_code == 400
    assert _confirm(uid, token).status_code == 400


def test_the_reset_finds_a_unicode_address_on_every_database(make_user):
    user = make_user("Ödön")
    user.email = "odon@PÉLDA.hu"
    user.save()
    assert _ask("ODON@példa.HU").status_code == 204
    assert [m.to for m in mail.outbox] == [["odon@PÉLDA.hu"]]
