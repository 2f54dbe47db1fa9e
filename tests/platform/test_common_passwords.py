"""Common Hungarian passwords are refused (docs/api.md, Field errors) wherever a password is chosen: at
sign-up, on the account page and by a reset link. Django's own list is English: "jelszo123" and
"Jelszo1234" passed it (the probe signed up with both). The second list's source:
backend/accounts/passwords/SOURCE.md; it is what tools/hu_common_passwords.py writes."""

from __future__ import annotations

import gzip

import pytest
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError

from backend.accounts import services
from tools import hu_common_passwords
from tests.platform.conftest import PASSWORD, csrf_client

pytestmark = pytest.mark.django_db

HUNGARIAN = ["jelszo123", "Jelszo1234", "jelszó2024", "Szeretlek1!", "lacika1990", "Kicsimdurci", "fradika123",
             "Nagyatad", "qwertz123", "Macska2000", "zsuzsika01"]


@pytest.mark.parametrize("password", HUNGARIAN)
def test_sign_up_refuses_a_common_hungarian_password(password, django_user_model):
    r = csrf_client(HTTP_ACCEPT_LANGUAGE="hu").post("/api/auth/signup/", {"username": "Erzsi", "password": password},
                                                    format="json")
    assert r.status_code == 400, r.json()
    assert r.json()["fields"]["password"] == ["Ez a jelszó túlságosan gyakori."]  # once, though on both lists
    assert not django_user_model.objects.exists()


def test_the_account_page_and_a_reset_link_refuse_them_too(make_user):
    from django.utils import translation

    user = make_user()
    for change in (lambda: services.change_password(user, PASSWORD, "Jelszo1234", new_password2=None, client="t"),
                   lambda: services.confirm_password_reset("x", "y", "jelszo123", new_password2=None, client="t")):
        with translation.override("en"), pytest.raises(Exception) as refused:
            change()
        assert refused.value.fields["new_password"] == ["This password is too common."]


@pytest.mark.parametrize("password", ["Jelszo-Balaton-Kakukk-17", "szeretem a fekete teát", "nagyatadi-kert-1987-ősz"])
def test_longer_passwords_built_from_the_same_words_pass(password):
    validate_password(password)


def test_django_s_english_list_still_applies():
    with pytest.raises(ValidationError):
        validate_password("password123")


def test_the_committed_list_is_what_the_tool_writes(tmp_path):
    """The list is made, not edited by hand: the tool's output equals the committed file, byte for byte."""
    written = tmp_path / "list.txt.gz"
    count = hu_common_passwords.write(written)
    assert written.read_bytes() == hu_common_passwords.OUT.read_bytes()
    lines = gzip.decompress(written.read_bytes()).decode().split("\n")[:-1]
    assert len(lines) == count and lines == sorted(set(lines)) and all(line == line.lower() for line in lines)
    assert {"jelszo123", "jelszo1234", "jelszó123"} <= set(lines)
