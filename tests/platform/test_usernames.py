"""Usernames compare by Unicode case folding (NFKC + casefold) on every database.

The suite runs on SQLite and on PostgreSQL (.ci/run); these tests are the
same on both, which is the point: SQLite's lower() folds ASCII only, and
PostgreSQL's lower() is not casefold either ("ß", final sigma)."""

from __future__ import annotations

import unicodedata

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from backend.accounts.models import fold
from tests.platform.conftest import PASSWORD, csrf_client

pytestmark = pytest.mark.django_db

DECOMPOSED = unicodedata.normalize("NFD", "Árpád")  # A + combining acute: looks the same, other code points
# (the name signed up first, spellings that must find it)
SPELLINGS = [
    ("Árpád", ["ÁRPÁD", "árpád", "áRpÁd", DECOMPOSED]),
    ("Straße", ["STRASSE", "strasse", "STRAẞE"]),  # ß folds to ss; lower() leaves it
    ("Οδυσσεύς", ["ΟΔΥΣΣΕΎΣ", "οδυσσεύσ"]),  # the final sigma folds to σ
    ("ﬁnn", ["FINN", "finn"]),  # the ligature is two letters under NFKC
]


@pytest.mark.parametrize("name, others", SPELLINGS)
def test_signup_clashes_with_every_spelling(name, others, django_user_model):
    assert csrf_client().post("/api/auth/signup/", {"username": name, "password": PASSWORD},
                              format="json").status_code == 201
    for other in others:
        r = csrf_client().post("/api/auth/signup/", {"username": other, "password": PASSWORD}, format="json")
        assert r.status_code == 409, (other, r.json())
        assert r.json() == {"code": "conflict", "message": "That username is taken.",
                            "fields": {"username": ["That username is taken."]}}
    assert django_user_model.objects.count() == 1


@pytest.mark.parametrize("name, others", SPELLINGS)
def test_log_in_and_token_with_any_spelling(name, others, make_user):
    user = make_user(name)
    for other in others:
        client = csrf_client()
        r = client.post("/api/auth/login/", {"username": other, "password": PASSWORD}, format="json")
        assert r.status_code == 200, (other, r.json())
        # The account keeps the spelling it was created with (after Django's NFKC).
        assert r.json()["id"] == user.pk and r.json()["username"] == unicodedata.normalize("NFKC", name)
        r = APIClient().post("/api/auth/token/", {"username": other, "password": PASSWORD}, format="json")
        assert r.status_code == 200
        me = APIClient(HTTP_AUTHORIZATION=f"Token {r.json()['token']}").get("/api/auth/me/")
        assert me.json()["id"] == user.pk


def test_a_different_name_is_a_different_account(make_user):
    make_user("Arpad")  # no accents: another name, not another spelling
    assert csrf_client().post("/api/auth/signup/", {"username": "Árpád", "password": PASSWORD},
                              format="json").status_code == 201
    r = csrf_client().post("/api/auth/login/", {"username": "arpad", "password": PASSWORD}, format="json")
    assert r.json()["username"] == "Arpad"


def test_a_name_that_unfolds_past_the_length_limit_is_refused(django_user_model):
    """Names are checked after NFKC, which turns U+FDFA into 18 characters (spaces among them), so
    the folded key stays within 3 x 150 characters: a field error, never an oversized index entry."""
    r = csrf_client().post("/api/auth/signup/", {"username": "\ufdfa" * 150, "password": PASSWORD}, format="json")
    assert r.status_code == 400 and list(r.json()["fields"]) == ["username"]
    assert any("150 characters" in sentence for sentence in r.json()["fields"]["username"])
    assert not django_user_model.objects.exists()


def test_the_database_refuses_a_folded_clash(make_user, django_user_model):
    make_user("Straße")
    with pytest.raises(IntegrityError), transaction.atomic():
        django_user_model.objects.create_user(username="STRASSE", password=PASSWORD)


def test_the_key_follows_a_rename(make_user, django_user_model):
    user = make_user("Zoltán")
    user.username = "Zsolt"
    user.save(update_fields=["username"])
    assert django_user_model.objects.get(pk=user.pk).username_key == fold("Zsolt") == "zsolt"
    r = csrf_client().post("/api/auth/login/", {"username": "ZSOLT", "password": PASSWORD}, format="json")
    assert r.status_code == 200
    assert csrf_client().post("/api/auth/signup/", {"username": "zoltán", "password": PASSWORD},
                              format="json").status_code == 201  # the old name is free again


def test_the_admin_reports_a_folded_clash_on_the_form(make_user, django_user_model):
    make_user("Straße")
    admin = django_user_model.objects.create_superuser("boss", password=PASSWORD)
    client = APIClient()
    client.force_login(admin)
    r = client.post("/admin/accounts/user/add/", {"username": "STRASSE", "password1": PASSWORD,
                                                  "password2": PASSWORD, "usable_password": "true"})
    assert r.status_code == 200 and "That username is taken." in r.content.decode()
    assert not django_user_model.objects.filter(username="STRASSE").exists()


@pytest.mark.django_db(transaction=True)
def test_the_migration_folds_existing_names_and_renames_clashes():
    """0003 fills the keys of rows made under the old lower() rule; a row that
    clashes under folding is renamed "<name>-<id>", a duplicate address cleared."""
    before = ("accounts", "0002_user_manager_iexact")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    try:
        old = MigrationExecutor(connection).loader.project_state([before]).apps.get_model("accounts", "User")
        # Distinct under lower() on both databases, one name under casefold.
        first = old.objects.create(username="Straße", email="Kata@example.org", password="x")
        second = old.objects.create(username="STRASSE", email="KATA@example.org", password="x")
        other = old.objects.create(username="Árpád", password="x")
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    from django.contrib.auth import get_user_model

    rows = {u.pk: u for u in get_user_model().objects.all()}
    assert (rows[first.pk].username, rows[first.pk].username_key) == ("Straße", "strasse")
    assert rows[first.pk].email == "Kata@example.org" and rows[first.pk].email_key == "kata@example.org"
    assert (rows[second.pk].username, rows[second.pk].email) == (f"STRASSE-{second.pk}", "")
    assert rows[second.pk].username_key == f"strasse-{second.pk}" and rows[second.pk].email_key is None
    assert rows[other.pk].username_key == "árpád"
