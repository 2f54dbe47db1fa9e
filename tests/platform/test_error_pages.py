"""The app's own answers for unknown addresses and oversized bodies, with DEBUG
on and off: never Django's page listing the URL patterns, never an HTML error
for the API."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import RequestDataTooBig
from django.test import AsyncClient, Client

from backend.common.errors import to_app_error
from tests.platform.conftest import PASSWORD

pytestmark = pytest.mark.django_db

# Words of Django's technical 404 and 500 pages; none may ever reach a client.
DJANGO_PAGES = ("URLconf", "Django tried these URL patterns", "api/auth/", "admin/", "DEBUG = True", "Traceback")


@pytest.fixture(params=[True, False], ids=["debug", "production"])
def debug(request, settings):
    settings.DEBUG = request.param
    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    return request.param


def _no_django_page(response):
    text = response.content.decode("utf-8", "replace")
    leaked = [word for word in DJANGO_PAGES if word in text]
    assert not leaked, (response.status_code, leaked, text[:300])


@pytest.mark.parametrize("path", ["/nope", "/nope/", "/lobbyx", "/matchx", "/wsx", "/api", "/reset-password", "/%E2%82%AC",
                                  "/x" * 300])
def test_an_unknown_page_is_the_app_shell_with_404(debug, path):
    response = Client().get(path)
    if response.status_code == 301:  # CommonMiddleware adds a missing slash where that names a page
        assert response["Location"] == path + "/"
        response = Client().get(response["Location"])
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")
    assert b'<script id="boot" type="application/json">' in response.content
    assert "csrftoken" in response.cookies  # the shell's forms work from here
    _no_django_page(response)


@pytest.mark.parametrize("path", ["/api/nope", "/api/nope/", "/api/lobbies/abc/", "/api/auth/", "/api/matches/1/nope/",
                                  "/api/auth/login/extra/"])
@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_an_unknown_api_address_is_json_not_found(debug, path, method):
    response = getattr(Client(), method)(path)
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert json.loads(response.content) == {"code": "not_found", "message": "Not found."}


@pytest.mark.parametrize("path, status", [("/app/nope.js", 404), ("/static/nope.css", 404), ("/ws/matches/1/", 404),
                                          ("/app/js/../../backend/settings.py", 400)])
def test_an_unknown_file_is_a_plain_error(debug, path, status):
    response = Client().get(path)
    assert response.status_code == status and response["Content-Type"].startswith("text/plain")
    _no_django_page(response)


def test_known_pages_still_answer(debug):
    assert Client().get("/").status_code == 200
    assert Client().get("/reset/MQ/abc-123").status_code == 200
    assert Client().get("/admin/login/").status_code == 200
    assert Client().get("/admin")["Location"] == "/admin/"  # the missing slash is still added


def test_a_view_s_own_404_is_the_app_s_too(debug, django_user_model):
    """Unknown admin addresses resolve to the admin's catch-all view, which raises Http404."""
    staff = django_user_model.objects.create_superuser("root", password=PASSWORD)
    client = Client()
    client.force_login(staff)
    response = client.get("/admin/no/such/page/")
    assert response.status_code == 404
    _no_django_page(response)


@pytest.mark.parametrize("content_type, body", [
    ("application/json", json.dumps({"username": "x" * 3000, "password": "y"})),
    ("application/x-www-form-urlencoded", "username=" + "x" * 3000 + "&password=y"),
    ("multipart/form-data; boundary=B", "--B\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\n"
                                        + "x" * 3000 + "\r\n--B--\r\n"),
])
def test_an_oversized_rest_body_is_too_large(debug, settings, content_type, body):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    response = Client().post("/api/auth/login/", body, content_type=content_type)
    assert response.status_code == 413 and response["Content-Type"] == "application/json"
    assert json.loads(response.content) == {"code": "too_large", "message": "The request body is over the 2 KiB limit."}
    response = Client().post("/admin/login/", body, content_type=content_type)
    assert response.status_code == 413
    _no_django_page(response)


def test_a_body_within_the_limit_is_read(debug, settings, make_user):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    make_user("pia")
    response = Client().post("/api/auth/login/", {"username": "pia", "password": PASSWORD}, content_type="application/json")
    assert response.status_code == 200


def test_the_limit_error_is_too_large_wherever_it_is_raised():
    """Django raises RequestDataTooBig when a body without a Content-Length grows over the limit while read."""
    error = to_app_error(RequestDataTooBig())
    assert (error.code, error.status) == ("too_large", 413)


async def test_over_asgi_too(settings):
    """The same answers through Django's ASGI handler (what Daphne runs)."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    settings.DEBUG = True
    client = AsyncClient()
    big = await client.post("/api/auth/login/", "x" * 5000, content_type="application/json")
    assert big.status_code == 413 and json.loads(big.content)["code"] == "too_large"
    missing = await client.get("/api/nope/")
    assert missing.status_code == 404 and json.loads(missing.content)["code"] == "not_found"
    page = await client.get("/nope")
    assert page.status_code == 404 and b'id="boot"' in page.content
    _no_django_page(page)
