"""Names nobody can impersonate (docs/api.md, Names and addresses): a new name whose Unicode skeleton
(UTS #39 confusables) is an existing name's is refused, and so is a name that mixes scripts; the
message says so in the request's language. The probe's accounts ("Аrpád" with a Cyrillic А beside
"Árpád", Greek α and dotless ı versions of names) are refused now; case, NFKC, fullwidth and
zero-width variants were already (tests/platform/test_usernames.py). `manage.py lookalike_names`
lists the clashes among existing accounts."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from backend.accounts.lookalikes import lookalike_key, mixed_scripts
from tests.platform.conftest import PASSWORD, csrf_client

pytestmark = pytest.mark.django_db

CYRILLIC_A, CYRILLIC_SMALL_A, GREEK_ALPHA, DOTLESS_I = "\u0410", "\u0430", "\u03b1", "\u0131"


def _sign_up(name: str, language: str = "en", address: str = "127.0.0.1"):
    return csrf_client(HTTP_ACCEPT_LANGUAGE=language, REMOTE_ADDR=address).post(
        "/api/auth/signup/", {"username": name, "password": PASSWORD}, format="json")


# (an existing name, look-alikes of it a new account may not take)
LOOKALIKES = [
    ("Árpád", [CYRILLIC_A + "rpád"]),  # the probe's: reads "Arpád" beside "Árpád"; mixed scripts
    ("Arpad", [CYRILLIC_A + "rpad", "Arp" + CYRILLIC_SMALL_A + "d", "Arp" + GREEK_ALPHA + "d"]),
    ("Kati", ["Kat" + DOTLESS_I]),  # all Latin: the skeleton catches it
    ("pope", ["\u0440\u043e\u0440\u0435"]),  # all Cyrillic р о р е: one script, the same skeleton
    ("ABE", ["\u0391\u0392\u0395"]),  # Greek capitals Α Β Ε
    ("larpad", ["Iarpad"]),  # a capital I for a small l
    ("Mirella", ["Mire11a"]),  # digits one for small l
]


@pytest.mark.parametrize("existing, others", LOOKALIKES)
def test_a_look_alike_of_an_existing_name_is_refused(existing, others, make_user, django_user_model):
    make_user(existing)
    for other in others:
        r = _sign_up(other)
        assert r.status_code in (400, 409), (other, r.json())
        assert list(r.json()["fields"]) == ["username"], r.json()
    assert django_user_model.objects.count() == 1


def test_the_skeleton_clash_says_which_name_in_both_languages(make_user):
    make_user("Kati")
    r = _sign_up("Kat" + DOTLESS_I)
    assert r.status_code == 409 and r.json()["code"] == "conflict"
    assert r.json()["fields"]["username"] == ['That name looks too much like the name of another player, "Kati": '
                                              'choose one that can be told apart.']
    r = _sign_up("Kat" + DOTLESS_I, "hu")
    assert r.json()["fields"]["username"] == ["Ez a név túlságosan hasonlít egy másik játékos nevére („Kati”): "
                                              "válassz olyat, amely megkülönböztethető tőle."]


def test_a_name_mixing_scripts_is_refused_even_with_no_look_alike(django_user_model):
    r = _sign_up(CYRILLIC_A + "rpád")
    assert r.status_code == 400 and r.json()["code"] == "bad_message"
    assert r.json()["fields"]["username"] == [
        "Write a username in one alphabet: letters of different scripts (Latin with Cyrillic or Greek, say) "
        "can imitate other names."]
    r = _sign_up(CYRILLIC_A + "rpád", "hu")
    assert r.json()["fields"]["username"] == [
        "A felhasználónevet egyetlen ábécével írd: a különböző írásrendszerek betűi (például latin és cirill "
        "vagy görög) más neveket utánozhatnak."]
    assert not django_user_model.objects.exists()


@pytest.mark.parametrize("name", ["Árpád", "Οδυσσεύς", "Пётр", "山田太郎", "やまだ太郎", "anna_1987", "Zoë-Ő.Ű"])
def test_names_in_one_script_are_welcome(name):
    assert not mixed_scripts(name)
    assert _sign_up(name).status_code == 201


def test_different_names_stay_different():
    """The check refuses look-alikes, not names that merely share letters: accents count."""
    for i, name in enumerate(("Arpad", "Árpád", "Arpád", "Kati", "Katy", "pope", "rope")):
        assert _sign_up(name, address=f"192.0.2.{i}").status_code == 201, name  # one address each: the sign-up limit


def test_the_key_is_the_same_for_every_spelling_of_a_look_alike():
    assert lookalike_key("pope") == lookalike_key("\u0440\u043e\u0440\u0435") == lookalike_key("POPE")
    assert lookalike_key("Kati") == lookalike_key("Kat" + DOTLESS_I) == lookalike_key("kati")
    assert lookalike_key("KATI") == lookalike_key("KATl")  # a capital I and a small l look alike
    assert lookalike_key("Árpád") != lookalike_key("Arpad")


def test_the_admin_form_reports_a_look_alike_too(make_user, django_user_model):
    from django.core.exceptions import ValidationError

    make_user("Kati")
    user = django_user_model(username="Kat" + DOTLESS_I)
    with pytest.raises(ValidationError) as refused:
        user.clean()
    assert "username" in refused.value.message_dict


def test_the_command_lists_existing_clashes(make_user, django_user_model):
    first, second = make_user("Kati"), make_user("other")
    mixed = make_user("plain")
    # Accounts from before the check: written past it, as an old sign-up was.
    django_user_model.objects.filter(pk=second.pk).update(username="Kat" + DOTLESS_I)
    django_user_model.objects.filter(pk=mixed.pk).update(username=CYRILLIC_A + "rpád")
    out = io.StringIO()
    call_command("lookalike_names", "--refresh", stdout=out)
    text = out.getvalue()
    assert f"Kati (id {first.pk}," in text and f"Kat{DOTLESS_I} (id {second.pk}," in text
    assert f"mixes scripts: {CYRILLIC_A}rpád (id {mixed.pk}," in text
    assert "2 accounts in 1 group of look-alike names; 1 name mixes scripts." in text
    # Nothing to report: says so.
    django_user_model.objects.filter(pk__in=[second.pk, mixed.pk]).delete()
    out = io.StringIO()
    call_command("lookalike_names", stdout=out)
    assert "No look-alike names, and no name mixes scripts." in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_keys_of_existing_accounts_and_renames_nobody():
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = ("accounts", "0004_user_language")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    try:
        old = executor.loader.project_state([before]).apps.get_model("accounts", "User")
        first = old.objects.create(username="Kati", username_key="kati", password="x")
        twin = old.objects.create(username="Kat" + DOTLESS_I, username_key="kat" + DOTLESS_I, password="x")
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    rows = {u.pk: u for u in get_user_model().objects.all()}
    assert rows[first.pk].username_lookalike == rows[twin.pk].username_lookalike == lookalike_key("Kati")
    assert rows[twin.pk].username == "Kat" + DOTLESS_I


@pytest.mark.django_db(transaction=True)
def test_two_look_alikes_signing_up_at_once_leave_one_account(monkeypatch, django_user_model):
    """Both sign-ups pass the first check of the name before either has written its account; the one
    that writes second must still be refused (the look-alike key is no unique index: older accounts may
    clash), so the check is made again inside the transaction, one sign-up per key at a time."""
    import threading

    from django.db import connection

    from backend.accounts import services

    if connection.vendor == "sqlite":
        # The test database is SQLite's shared-cache in-memory one, whose table locks fail at once
        # instead of waiting like the real file (timeout=20): the next test covers SQLite.
        pytest.skip("needs PostgreSQL (in-memory SQLite cannot queue concurrent writers)")
    first_checks = threading.Barrier(2, timeout=10)
    second_checks = threading.Barrier(2, timeout=2)
    calls = threading.local()
    name_problem = django_user_model.name_problem

    def both_checked(self):
        problem = name_problem(self)
        calls.n = getattr(calls, "n", 0) + 1
        if calls.n == 1:
            first_checks.wait()  # each sign-up has seen no look-alike before either writes
        else:
            # Unheld, both would check again here before either wrote; held, the second waits for the
            # first to commit, and this barrier gives up after 2 s.
            try:
                second_checks.wait()
            except threading.BrokenBarrierError:
                pass
        return problem

    monkeypatch.setattr(django_user_model, "name_problem", both_checked)
    answers = {}

    def sign_up(name: str) -> None:
        try:
            services.sign_up(name, PASSWORD, password2=None, email="", client=name, site=None)
            answers[name] = "created"
        except Exception as exc:  # noqa: BLE001 - the refusal's code is the answer
            answers[name] = getattr(exc, "code", repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=(name,)) for name in ("Kati", "Kat" + DOTLESS_I)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert sorted(answers.values()) == ["conflict", "created"], answers
    assert django_user_model.objects.count() == 1


def test_a_look_alike_written_between_the_check_and_the_write_refuses_the_second(monkeypatch, django_user_model):
    """The interleaving of the test above, in one thread and on every database: "Kati" signs up
    whole after "Katı" was checked and before it is written."""
    from backend.accounts import services

    name_problem = django_user_model.name_problem
    checks = []

    def then_the_other_signs_up(self):
        problem = name_problem(self)
        checks.append(self.username)
        if checks == ["Kat" + DOTLESS_I]:
            services.sign_up("Kati", PASSWORD, password2=None, email="", client="other", site=None)
        return problem

    monkeypatch.setattr(django_user_model, "name_problem", then_the_other_signs_up)
    with pytest.raises(Exception) as refused:
        services.sign_up("Kat" + DOTLESS_I, PASSWORD, password2=None, email="", client="me", site=None)
    assert refused.value.code == "conflict"
    assert refused.value.fields == {"username": ['That name looks too much like the name of another player, '
                                                 '"Kati": choose one that can be told apart.']}
    assert list(django_user_model.objects.values_list("username", flat=True)) == ["Kati"]
