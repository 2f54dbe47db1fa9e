"""Two languages on the server (docs/api.md, Languages): how a request's language is chosen, the language
endpoint, Hungarian errors and pages, the WebSocket helper, and the catalogue itself (complete, compiled, and
holding every string the code asks for)."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from rest_framework.test import APIClient

from backend.common.i18n import choose, language_from_scope
from backend.games import registry
from backend.games.pieces import name_pieces
from backend.common.management.commands.makemessages import REFUSAL_KEYWORDS
from backend.engines import available_engines
from backend.games import texts
from tests.platform.conftest import PASSWORD

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)
PO = ROOT / "backend" / "locale" / "hu" / "LC_MESSAGES" / "django.po"
COOKIE = settings.LANGUAGE_COOKIE_NAME


def _csrf_client(**extra):
    client = APIClient(enforce_csrf_checks=True, **extra)
    assert client.get("/api/auth/csrf/").status_code == 204
    client.credentials(HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    return client


# ---- which language ----------------------------------------------------------
class _User:
    is_authenticated = True

    def __init__(self, language):
        self.language = language


@pytest.mark.parametrize("cookie, user, accept, expected", [
    ("hu", None, "", "hu"),
    ("en", _User("hu"), "hu-HU,hu;q=0.9", "en"),  # the cookie first
    (None, _User("hu"), "en-US,en;q=0.9", "hu"),  # then the account
    ("xx", _User("hu"), "en", "hu"),  # a cookie naming no language of ours does not count
    (None, _User(""), "hu-HU,hu;q=0.9,en;q=0.8", "hu"),  # then the browser
    (None, AnonymousUser(), "de-DE,de;q=0.9,hu;q=0.5", "hu"),
    (None, None, "de-DE,fr;q=0.5", "en"),  # else English
    (None, None, "", "en"),
])
def test_the_language_rule(cookie, user, accept, expected):
    assert choose(cookie, user, accept) == expected


def test_requests_speak_the_chosen_language(make_user, client_for):
    anon = APIClient()
    assert anon.get("/api/games/", HTTP_ACCEPT_LANGUAGE="hu-HU,hu;q=0.9")["Content-Language"] == "hu"
    assert anon.get("/api/games/", HTTP_ACCEPT_LANGUAGE="de")["Content-Language"] == "en"
    anon.cookies[COOKIE] = "en"
    response = anon.get("/api/games/", HTTP_ACCEPT_LANGUAGE="hu")
    assert response["Content-Language"] == "en"
    assert {"Accept-Language", "Cookie"} <= {v.strip() for v in response["Vary"].split(",")}
    user = make_user()
    user.language = "hu"
    user.save()
    assert client_for(user).get("/api/games/", HTTP_ACCEPT_LANGUAGE="en")["Content-Language"] == "hu"


def test_a_session_without_the_cookie_gets_the_account_s_language_as_cookie(user, client_for):
    user.language = "hu"
    user.save()
    signed_in = client_for(user)
    response = signed_in.get("/api/games/", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Language"] == "hu" and response.cookies[COOKIE].value == "hu"
    assert COOKIE not in signed_in.get("/api/games/").cookies  # once is enough
    assert COOKIE not in APIClient().get("/api/games/", HTTP_ACCEPT_LANGUAGE="hu").cookies  # visitors: no cookie unasked


# ---- the endpoint, the account, log-in -----------------------------------------
def test_anyone_chooses_a_language_and_the_cookie_keeps_it():
    client = _csrf_client()
    r = client.post("/api/auth/language/", {"language": "hu"}, format="json")
    assert r.status_code == 200 and r.json() == {"language": "hu"}
    cookie = r.cookies[COOKIE]
    assert cookie.value == "hu" and int(cookie["max-age"]) >= 180 * 24 * 3600 and cookie["samesite"] == "Lax"
    assert client.get("/api/games/", HTTP_ACCEPT_LANGUAGE="en")["Content-Language"] == "hu"


@pytest.mark.parametrize("body", [{"language": "de"}, {"language": ""}, {}, {"language": ["hu"]}])
def test_only_our_languages_are_accepted(body):
    r = _csrf_client().post("/api/auth/language/", body, format="json")
    assert r.status_code == 400 and r.json()["code"] == "bad_message" and COOKIE not in r.cookies


def test_choosing_needs_the_csrf_token_in_a_browser():
    r = APIClient(enforce_csrf_checks=True).post("/api/auth/language/", {"language": "hu"}, format="json")
    assert r.status_code == 403 and COOKIE not in r.cookies


def test_a_token_client_chooses_without_csrf(user):
    from rest_framework.authtoken.models import Token

    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    assert client.post("/api/auth/language/", {"language": "hu"}, format="json").status_code == 200
    user.refresh_from_db()
    assert user.language == "hu"


def test_the_account_keeps_its_language_and_log_in_brings_it_back(make_user):
    make_user("Vilma")
    browser = _csrf_client()
    assert browser.post("/api/auth/login/", {"username": "Vilma", "password": PASSWORD}, format="json").status_code == 200
    browser.credentials(HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value)  # log-in rotates the token
    assert browser.post("/api/auth/language/", {"language": "hu"}, format="json").status_code == 200
    assert browser.get("/api/auth/me/").json()["language"] == "hu"

    # Another browser, which asks for English and has no cookie: after log-in the site speaks the account's language.
    other = _csrf_client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    r = other.post("/api/auth/login/", {"username": "Vilma", "password": PASSWORD}, format="json")
    assert r.json()["language"] == "hu" and r.cookies[COOKIE].value == "hu"
    assert other.get("/api/games/")["Content-Language"] == "hu"


def test_sign_up_keeps_the_language_the_visitor_was_reading():
    client = _csrf_client(HTTP_ACCEPT_LANGUAGE="hu-HU,hu;q=0.9")
    r = client.post("/api/auth/signup/", {"username": "Zsófia", "password": PASSWORD}, format="json")
    assert r.status_code == 201 and r.json()["language"] == "hu" and r.cookies[COOKIE].value == "hu"
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.get(username="Zsófia").language == "hu"


def test_me_reports_the_current_language_for_an_account_without_one(user, client_for):
    user.language = ""
    user.save()
    assert client_for(user).get("/api/auth/me/", HTTP_ACCEPT_LANGUAGE="hu").json()["language"] == "hu"


# ---- Hungarian answers ---------------------------------------------------------
def test_rest_errors_come_in_hungarian_for_a_hungarian_cookie(logged_in):
    logged_in.cookies[COOKIE] = "hu"
    missing = logged_in.get("/api/lobbies/999999/")
    assert missing.status_code == 404 and missing.json() == {"code": "not_found", "message": "Nincs ilyen lobbi."}
    seats = logged_in.post("/api/lobbies/", {"game": "gods_playground", "num_seats": 4}, format="json").json()
    assert seats["message"] == "Az Isten játszótere: pontosan 3 hely kell."
    logged_in.cookies[COOKIE] = "en"
    assert logged_in.get("/api/lobbies/999999/").json()["message"] == "There is no such lobby."


def test_django_validators_speak_hungarian_too():
    client = _csrf_client()
    client.cookies[COOKIE] = "hu"
    r = client.post("/api/auth/signup/", {"username": "kati", "password": "1234"}, format="json")
    assert r.status_code == 400
    assert any("túl rövid" in m for m in r.json()["fields"]["password"]), r.json()
    r = client.post("/api/auth/signup/", {"username": "kati"}, format="json")
    assert r.json()["fields"]["password"] == ["Válassz jelszót."]
    r = client.post("/api/auth/login/", {"username": "kati"}, format="json")
    assert r.json()["fields"]["password"] == ["Írd be a jelszavad."]


def test_rate_limits_say_how_long_to_wait_in_the_language(settings):
    settings.THROTTLE_RATES = {"login": "1/min", "signup": "5/min", "password": "3/hour", "reset": "2/hour"}
    client = _csrf_client()
    client.cookies[COOKIE] = "hu"
    for _ in range(2):
        r = client.post("/api/auth/login/", {"username": "nobody", "password": "wrong-password"}, format="json")
    assert r.status_code == 429 and re.fullmatch(r"Túl sok próbálkozás\. Próbáld újra \d+ másodperc múlva\.", r.json()["message"])


def test_games_are_described_in_the_language():
    hu = {g["id"]: g for g in APIClient().get("/api/games/", HTTP_ACCEPT_LANGUAGE="hu").json()}
    assert hu["gods_playground"]["name"] == "Az Isten játszótere"
    assert hu["condottiere"]["options_schema"]["hidden_cards"]["label"] == "Rejtett kártyák"
    en = {g["id"]: g for g in APIClient().get("/api/games/", HTTP_ACCEPT_LANGUAGE="en").json()}
    assert en["condottiere"]["options_schema"]["hidden_cards"]["label"] == "Hidden cards"


def test_every_engine_text_players_read_is_listed_and_translated():
    """A new game or option must reach the catalogue (backend/games/texts.py), with its Hungarian, unless its
    manifest gives its name and words in both languages (docs/new-game.md)."""
    catalogue = _po_entries()
    for engine in available_engines().values():
        described = registry.game(engine.id)
        own = described.options if described else {}
        named = bool(described) and set(described.name) >= {"en", "hu"}
        words = ([] if named else [engine.name]) + [spec[k] for key, spec in engine.options_schema.items() if not spec.get("test_hook")
                                 for k in ("label", "help") if spec.get(k) and set(own.get(key, {}).get(k, {})) < {"en", "hu"}]
        for text in words:
            assert text in texts.TEXTS, f"{engine.id}: {text!r} is missing from backend/games/texts.py"
            assert catalogue.get((None, text)), f"{engine.id}: {text!r} has no Hungarian"


def test_the_page_is_rendered_in_the_language(client):
    page = client.get("/signup", HTTP_ACCEPT_LANGUAGE="hu-HU,hu;q=0.9").content.decode()
    assert '<html lang="hu">' in page
    assert "<title>Regisztráció · Condottiere &amp; Az Isten játszótere</title>" in page
    # The words load under their content-hashed name (backend/web/assets.py).
    assert re.search(r'<link rel="preload" href="/app/i18n/hu/site\.[0-9a-f]+\.json" as="fetch" crossorigin>', page)
    assert '<html lang="en">' in client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


# ---- WebSockets ----------------------------------------------------------------
def test_language_from_scope_reads_cookie_user_and_headers():
    user = _User("hu")
    assert language_from_scope({"cookies": {COOKIE: "en"}, "user": user, "headers": []}) == "en"
    assert language_from_scope({"cookies": {}, "user": user, "headers": [(b"accept-language", b"en")]}) == "hu"
    assert language_from_scope({"headers": [(b"accept-language", b"hu-HU,hu;q=0.9")]}) == "hu"
    assert language_from_scope({}) == "en"


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_answers_in_the_language_of_its_handshake():
    from channels.testing import WebsocketCommunicator

    from backend.asgi import application

    async def refusal(*headers):
        comm = WebsocketCommunicator(application, "/ws/lobbies/999999/",
                                     headers=[(b"host", b"testserver"), (b"origin", b"http://testserver"), *headers])
        assert (await comm.connect())[0]
        answer = await comm.receive_json_from()
        await comm.disconnect()
        return answer

    assert (await refusal((b"cookie", f"{COOKIE}=hu".encode())))["message"] == "Nincs ilyen lobbi."
    assert (await refusal((b"accept-language", b"hu-HU,hu;q=0.9")))["message"] == "Nincs ilyen lobbi."
    assert (await refusal((b"accept-language", b"en")))["message"] == "There is no such lobby."


def test_pieces_an_engine_names_take_the_app_s_words_in_the_language():
    from django.utils import translation

    params = {"unit": "cannon", "province": "little_poland", "money": 3}
    with translation.override("hu"):
        assert name_pieces("gods_playground", params) == {"unit": "Ágyú", "province": "Kis-Lengyelország", "money": 3}
    with translation.override("en"):
        assert name_pieces("gods_playground", params) == {"unit": "Cannon", "province": "Little Poland", "money": 3}
        assert name_pieces("gods_playground", {"province": "atlantis"}) == {"province": "atlantis"}  # unknown: the code
        assert name_pieces("condottiere", {"province": "little_poland"}) == {"province": "little_poland"}


def test_a_refused_noble_layout_names_its_slot_in_words():
    """The place_nobles refusal's `slot` (a province or the royal court, docs/engines.md) reaches the player as the
    map's name for it, in the player's language, never as the protocol code."""
    from django.utils import translation

    from backend.engines.gods_playground import refusals
    from backend.engines.gods_playground.board import SLOTS
    from backend.matches.errors import engine_refusal

    layout = {"type": "place_nobles", **dict.fromkeys(SLOTS, 1)}
    exc = refusals.refusal({"hand": [[2, 3]], "pending": {"kind": "nobles"}, "over": False}, 0, layout)
    assert exc is not None and exc.params["slot"] in SLOTS
    with translation.override("hu"):
        hu = str(engine_refusal(exc, "gods_playground").message)
    with translation.override("en"):
        en = str(engine_refusal(exc, "gods_playground").message)
    assert exc.params["slot"] not in hu + en
    with translation.override("en"):
        assert name_pieces("gods_playground", {"slot": "royal"}) == {"slot": "Royal army"}
    with translation.override("hu"):
        assert name_pieces("gods_playground", {"slot": exc.params["slot"]})["slot"] in hu


# ---- the catalogue -------------------------------------------------------------
def _unquote(text: str) -> str:
    return ast.literal_eval(text)


def _po_entries(path: Path = PO) -> dict[tuple[str | None, str], list[str]]:
    """{(msgctxt, msgid): [msgstr or msgstr[n]...]} of the translated-or-not entries, fuzzy ones as untranslated."""
    entries: dict[tuple[str | None, str], list[str]] = {}
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    for block in blocks:
        lines = [line for line in block.strip().splitlines() if not line.startswith("#~")]
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        fields: dict[str, str] = {}
        key = None
        for line in lines:
            if line.startswith("#"):
                continue
            m = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (".*")$', line)
            if m:
                key = m.group(1)
                fields[key] = _unquote(m.group(2))
            elif line.startswith('"') and key:
                fields[key] += _unquote(line)
        if "msgid" not in fields or fields["msgid"] == "":
            continue
        strings = [v for k, v in sorted(fields.items()) if k.startswith("msgstr")]
        entries[(fields.get("msgctxt"), fields["msgid"])] = [] if fuzzy else strings
    return entries


def test_every_hungarian_entry_is_translated_with_the_same_placeholders():
    entries = _po_entries()
    assert len(entries) > 50
    for (ctx, msgid), strings in entries.items():
        assert strings and all(strings), f"untranslated (or fuzzy) in {PO.name}: {msgid!r}"
        placeholders = r"%\(\w+\)[sdr]|\{[^{}]*\}"  # Django's %(name)s, the engines' {name}
        wanted = set(re.findall(placeholders, msgid))
        for s in strings:
            assert set(re.findall(placeholders, s)) == wanted, (msgid, s)


def test_the_compiled_catalogue_is_not_stale():
    """The committed .mo holds exactly the .po's translations (run `make messages` after editing the .po)."""
    with open(PO.with_suffix(".mo"), "rb") as f:
        compiled = gettext.GNUTranslations(f)._catalog  # noqa: SLF001  (the stdlib's parsed .mo)
    expected: dict = {}
    for (ctx, msgid), strings in _po_entries().items():
        key = f"{ctx}\x04{msgid}" if ctx else msgid
        if len(strings) == 1:
            expected[key] = strings[0]
        else:
            for n, s in enumerate(strings):
                expected[(key, n)] = s
    compiled = {k: v for k, v in compiled.items() if k != ""}  # the header
    assert compiled == expected


# Django's gettext functions, and the engines' refusal classes whose first argument is a template.
_GETTEXT = {"gettext", "gettext_lazy", "gettext_noop", "_", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy",
            *REFUSAL_KEYWORDS}


def _calls(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name in _GETTEXT and node.args and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args[:2]):
                args = [a.value for a in node.args[:2]]
                yield (args[0], args[1]) if name.startswith("pgettext") else (None, args[0])


def test_every_string_the_code_translates_is_in_the_catalogue():
    """Catches a new gettext string committed without `make messages`."""
    entries = _po_entries()
    sources = [p for p in (ROOT / "backend").rglob("*.py") if "migrations" not in p.parts]
    missing = [(p.relative_to(ROOT).as_posix(), key) for p in sources
               for key in _calls(ast.parse(p.read_text(encoding="utf-8"))) if key not in entries]
    assert not missing, missing
    template = (ROOT / "frontend" / "index.html").read_text(encoding="utf-8")
    for msgid in re.findall(r'{% translate "([^"]+)" %}', template):
        assert (None, msgid) in entries, msgid
