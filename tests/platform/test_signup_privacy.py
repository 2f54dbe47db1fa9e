"""Sign-up no longer tells whether an address has an account (docs/api.md, Accounts: E-mail addresses).
An address given at sign-up, or on the account page, waits for its owner: the answer is the same whether
or not another account uses it, and the address gets one mail, either a link that confirms it or, when
it belongs to an account already, a note to that account's owner. The probe read "Ezzel az e-mail-címmel
már van fiók." off the sign-up form for every registered address."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from rest_framework.test import APIClient

from backend.common import mail as mail_queue
from tests.platform.conftest import PASSWORD, csrf_client

from .test_password_reset import mona  # noqa: F401  (fixture: Mona, "Mona.Lisa@example.org")

# The mail thread reads the accounts over its own connection: it must see committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

CONFIRM = re.compile(r"http://testserver/confirm-email/(?P<token>\S+)")


def _sign_up(name: str, email: str, language: str = "en", address: str = "127.0.0.1"):
    answer = csrf_client(HTTP_ACCEPT_LANGUAGE=language, REMOTE_ADDR=address).post(
        "/api/auth/signup/", {"username": name, "password": PASSWORD, "email": email}, format="json")
    mail_queue.flush()
    return answer


def _confirm(token: str):
    return APIClient().post("/api/auth/email/confirm/", {"token": token}, format="json")


def _token(message) -> str:
    found = CONFIRM.search(message.body)
    assert found, message.body
    return found["token"]


def test_the_answer_is_the_same_whether_or_not_the_address_has_an_account(mona, django_user_model):
    taken = _sign_up("Newcomer", "MONA.LISA@example.org")
    fresh = _sign_up("Other", "fresh@example.org", address="192.0.2.7")
    assert taken.status_code == fresh.status_code == 201
    masked = [{**r.json(), "id": 0, "username": "", "email_pending": r.json()["email_pending"].lower()}
              for r in (taken, fresh)]
    assert masked[0] == {**masked[1], "email_pending": "mona.lisa@example.org"}
    assert taken.json()["email"] == "" and taken.json()["email_pending"] == "MONA.LISA@example.org"
    # The owner's address is still the owner's; nobody else has it.
    assert django_user_model.objects.get(username="Newcomer").email == ""
    mona.refresh_from_db()
    assert mona.email == "Mona.Lisa@example.org"


def test_the_owner_is_told_and_the_newcomer_gets_nothing_to_confirm(mona):
    _sign_up("Newcomer", "mona.lisa@example.org")
    [note] = mail.outbox
    assert note.to == ["mona.lisa@example.org"]
    assert note.subject == "Your e-mail address at testserver"
    assert "Hello Mona," in note.body and '"Newcomer"' in note.body and "http://testserver/reset" in note.body
    assert "confirm-email" not in note.body


def test_a_fresh_address_is_confirmed_by_its_link_and_then_takes_resets(django_user_model):
    answer = _sign_up("Zsófi", "zsofi@example.org", language="hu")
    assert answer.json()["email_pending"] == "zsofi@example.org"
    [message] = mail.outbox
    assert message.to == ["zsofi@example.org"] and "Zsófi" in message.body
    assert message.subject == "Erősítsd meg az e-mail-címedet (testserver)"
    user = django_user_model.objects.get(username="Zsófi")
    # Before the link is opened, a reset to the address finds nobody.
    APIClient().post("/api/auth/password-reset/", {"email": "zsofi@example.org"}, format="json")
    mail_queue.flush()
    assert len(mail.outbox) == 1
    token = _token(message)
    confirmed = _confirm(token)
    assert confirmed.status_code == 200 and confirmed.json() == {"email": "zsofi@example.org"}
    user.refresh_from_db()
    assert (user.email, user.pending_email) == ("zsofi@example.org", "")
    used = _confirm(token)
    assert used.status_code == 400 and list(used.json()["fields"]) == ["token"]
    APIClient().post("/api/auth/password-reset/", {"email": "zsofi@example.org"}, format="json")
    mail_queue.flush()
    assert "/reset/" in mail.outbox[-1].body


def test_a_newer_address_and_time_end_a_link(make_user, client_for, settings):
    user = make_user("Ödön")
    client = client_for(user)
    for address in ("first@example.org", "second@example.org"):
        r = client.post("/api/auth/email/", {"password": PASSWORD, "email": address}, format="json")
        assert r.status_code == 200 and (r.json()["email"], r.json()["email_pending"]) == ("", address)
    mail_queue.flush()
    first, second = (_token(m) for m in mail.outbox)
    assert _confirm(first).status_code == 400  # superseded
    settings.PASSWORD_RESET_TIMEOUT = -1
    assert _confirm(second).status_code == 400  # expired
    settings.PASSWORD_RESET_TIMEOUT = 3600
    assert _confirm(second).status_code == 200
    # Removing it is at once, and ends whatever waits.
    r = client.post("/api/auth/email/", {"password": PASSWORD, "email": ""}, format="json")
    assert (r.json()["email"], r.json()["email_pending"]) == ("", "")


def test_the_account_page_does_not_tell_either(mona, make_user, client_for):
    other = make_user("Other")
    r = client_for(other).post("/api/auth/email/", {"password": PASSWORD, "email": "mona.lisa@example.org"}, format="json")
    assert r.status_code == 200 and r.json()["email_pending"] == "mona.lisa@example.org"
    mail_queue.flush()
    [note] = mail.outbox
    assert note.to == ["mona.lisa@example.org"] and '"Other"' in note.body


def test_two_accounts_racing_for_one_address_the_first_link_opened_wins(make_user, client_for):
    a, b = make_user("Anna"), make_user("Bea")
    for user in (a, b):
        client_for(user).post("/api/auth/email/", {"password": PASSWORD, "email": "shared@example.org"}, format="json")
    mail_queue.flush()
    first, second = (_token(m) for m in mail.outbox)
    assert _confirm(first).status_code == 200
    refused = _confirm(second)  # only whoever reads that mailbox learns this
    assert refused.status_code == 409 and refused.json()["fields"] == {
        "email": ["An account already uses that e-mail address."]}


def test_mails_to_one_address_are_limited(make_user, client_for, settings):
    """THROTTLE_RESET (5/hour) mails to one address, confirmations and resets together; past it, the
    answer is unchanged and no mail goes."""
    user = make_user("Flood")
    client = client_for(user)
    for _ in range(7):
        r = client.post("/api/auth/email/", {"password": PASSWORD, "email": "victim@example.org"}, format="json")
        assert r.status_code == 200
        mail_queue.flush()  # one at a time: SQLite's test database may refuse a read during the next write
    assert len([m for m in mail.outbox if m.to == ["victim@example.org"]]) == 5


def test_a_forged_token_is_refused():
    for token in ("", "x", "e30:1vQx:abc", "a" * 400):
        r = _confirm(token)
        assert r.status_code == 400, token
