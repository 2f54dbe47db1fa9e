"""The account screens in Chromium, in Hungarian and English: sign-up errors beside their fields, the
password reset by e-mail end to end, the account page, refused forms that cost no rate limit, and the
app's own not-found screen with DEBUG on and off.

The servers here are the real thing (Daphne, SQLite, the app's mail thread) with Django's file e-mail
backend: the locmem backend keeps its outbox in the server process's memory, which a test in another
process cannot read without a test-only endpoint; the file backend is Django's own and writes each mail
where the test reads it. Screenshots go to test-artifacts/screenshots/accounts/."""

from __future__ import annotations

import contextlib
import email
import re
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.servers import Daphne, manage, server_env

from .support import DESKTOP, PASSWORD, PHONE, Client

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-US", "hu": "hu-HU"}
NEW_PASSWORD = "another-long-passphrase-77"
_serial = iter(range(1, 10_000))


@dataclass
class Site:
    url: str
    mail: Path


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """`site(debug)`: a server with DEBUG on or off, started on first use. With DEBUG on, the sign-up limit
    is one account a minute (the throttle test runs there; nothing else signs up on it)."""
    started: dict[bool, Site] = {}
    with contextlib.ExitStack() as stack:
        def get(debug: bool) -> Site:
            if debug not in started:
                tmp = tmp_path_factory.mktemp("accounts-debug" if debug else "accounts")
                env = server_env(
                    f"sqlite:///{tmp / 'db.sqlite3'}", REDIS_URL="", DJANGO_PRODUCTION="", LOG_LEVEL="WARNING",
                    DJANGO_DEBUG="1" if debug else "0", THROTTLE_SIGNUP="1/min" if debug else "1000/min",
                    THROTTLE_LOGIN="1000/min", EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
                    EMAIL_FILE_PATH=str(tmp / "mail"))
                manage(env, "migrate", "--noinput", "-v0")
                server = stack.enter_context(Daphne(env, log=tmp / "daphne.log"))
                started[debug] = Site(f"http://127.0.0.1:{server.port}", tmp / "mail")
            return started[debug]

        yield get


@pytest.fixture(scope="module")
def shots(screenshots) -> Path:
    folder = screenshots / "accounts"
    folder.mkdir(exist_ok=True)
    return folder


def _refusals_only(client: Client) -> list[str]:
    """The console errors besides the browser's own line for each refused request (a 4xx is the point here)."""
    return [e for e in client.errors if not re.search(r"Failed to load resource: the server responded with a status of 4\d\d", e)]


def _error(client: Client, field: str) -> str:
    return client.page.text_content(f"[data-testid=field-error][data-field={field}]").strip()


def _wait_focus(client: Client, name: str) -> None:
    """The refused form moves focus to its first bad field once the errors have rendered (an effect after the paint)."""
    client.page.wait_for_function("n => document.activeElement && document.activeElement.name === n", arg=name, timeout=5000)


def _fill(client: Client, values: dict[str, str]) -> None:
    for name, value in values.items():
        client.page.fill(f"input[name={name}]", value)


def _submit(client: Client, form: str = "form") -> None:
    client.page.click(f"{form} button[type=submit]")


def _full_page(client: Client, path: Path) -> None:
    """A whole-page screenshot from the top (scrolled, the sticky header would land mid-page)."""
    client.page.evaluate("window.scrollTo(0, 0)")
    client.page.screenshot(path=str(path), full_page=True)


def _signup(client: Client, *, email: str = "") -> str:
    name = f"konto{next(_serial)}x{int(time.time() * 1000) % 100000}"
    client.goto("/signup")
    _fill(client, {"username": name, "email": email, "password": PASSWORD, "password2": PASSWORD})
    _submit(client)
    client.page.wait_for_selector(f"[data-testid=username]:text-is('{name}')")
    client.name = name
    return name


def _mail_to(site: Site, address: str, timeout: float = 15, nth: int = 0) -> email.message.Message:
    """The `nth` mail the file backend wrote to `address` (the app sends from its mail thread, after answering)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = []
        for path in sorted(site.mail.glob("*.log")) if site.mail.is_dir() else ():
            for raw in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
                if raw.strip():
                    message = email.message_from_bytes(raw)
                    if message["To"] == address:
                        found.append(message)
        if len(found) > nth:
            return found[nth]
        time.sleep(0.05)
    raise AssertionError(f"no mail {nth} to {address} within {timeout}s")


def _body(message: email.message.Message) -> str:
    return message.get_payload(decode=True).decode(message.get_content_charset() or "utf-8")


def _confirm_address(client: Client, site: Site, address: str, nth: int = 0) -> None:
    """Open the confirmation link mailed to `address`, as its owner would; the page says it worked."""
    link = re.search(r"(http://\S+/confirm-email/\S+)", _body(_mail_to(site, address, nth=nth))).group(1)
    client.page.goto(link)
    client.page.wait_for_selector("[data-testid=confirm-done]")
    assert address in client.page.text_content("[data-testid=confirm-done]")


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_sign_up_errors_stand_by_their_fields_in_plain_words(browser, site, shots, lang):
    words = {  # the server's own sentences (gettext, Django's validators), by field
        "en": {"password": "too short", "password2": "differ", "email": "whole e-mail", "username": "only letters"},
        "hu": {"password": "túl rövid", "password2": "nem egyezik", "email": "teljes e-mail-cím", "username": "csak betű"},
    }[lang]
    for device, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        me = Client(browser, site(False).url, viewport, locale=LOCALES[lang])
        try:
            me.goto("/signup")
            me.page.wait_for_selector("input[name=password2]")
            _fill(me, {"username": "no spaces please", "email": "not-an-address", "password": "1234", "password2": "4321"})
            _submit(me)
            me.page.wait_for_selector("[data-testid=field-error][data-field=password2]")
            for field, word in words.items():
                text = _error(me, field)
                assert word in text.lower(), (field, text)
                assert not re.match(r"\w+:", text), text  # a sentence, not "password: ..."
                box = me.page.locator(f"input[name={field}]")
                assert box.get_attribute("aria-invalid") == "true"
                error_id = me.page.get_attribute(f"[data-testid=field-error][data-field={field}]", "id")
                assert error_id in box.get_attribute("aria-describedby").split()
            # Nothing repeats them in a banner, and the first field to fix has the focus.
            assert me.page.locator("[role=alert]").count() == 0
            _wait_focus(me, "username")
            _full_page(me, shots / f"signup-errors-{lang}-{device}.png")

            # Correcting a field takes its error away; the rest stay until the next try.
            me.page.fill("input[name=password2]", "1234")
            assert me.page.locator("[data-testid=field-error][data-field=password2]").count() == 0
            assert me.page.locator("[data-testid=field-error][data-field=password]").count() == 1
            if device == "desktop":
                # The log-in form the same way: an empty form is two field errors, and costs no attempt.
                me.page.click("a[href='/login']")
                me.page.wait_for_selector("[data-testid=forgot]")
                _submit(me)
                assert _error(me, "username") == {"en": "Type your username.", "hu": "Írd be a felhasználóneved."}[lang]
                assert me.page.locator("[data-testid=field-error][data-field=password]").count() == 1
                me.page.click("a[href='/signup']")
                name = f"Ügyes{next(_serial)}"
                _fill(me, {"username": name, "email": "", "password": PASSWORD, "password2": PASSWORD})
                _submit(me)
                me.page.wait_for_selector(f"[data-testid=username]:text-is('{name}')")
            assert _refusals_only(me) == []
        finally:
            me.close()


def test_refused_sign_ups_do_not_use_up_the_limit(browser, site):
    """The server allows one new account a minute here: five refused forms first, and the account is still made;
    a second account is then refused with the limit's own message."""
    me = Client(browser, site(True).url, PHONE)
    other = Client(browser, site(True).url, PHONE)
    try:
        me.goto("/signup")
        me.page.wait_for_selector("input[name=password2]")
        for values, field in (
            ({"username": "", "password": PASSWORD, "password2": PASSWORD}, "username"),
            ({"username": "bad name", "password": PASSWORD, "password2": PASSWORD}, "username"),
            ({"username": "limited", "password": "short", "password2": "short"}, "password"),
            ({"username": "limited", "password": PASSWORD, "password2": PASSWORD + "!"}, "password2"),
            ({"username": "limited", "email": "@nowhere", "password": PASSWORD, "password2": PASSWORD}, "email"),
        ):
            _fill(me, {"email": "", **values})
            _submit(me)
            me.page.wait_for_selector(f"[data-testid=field-error][data-field={field}]")
            # Typing on before the refused form has moved the focus can land in the field it moves to.
            _wait_focus(me, field)
        _fill(me, {"username": "limited", "email": "", "password": PASSWORD, "password2": PASSWORD})
        _submit(me)
        me.page.wait_for_selector("[data-testid=username]:text-is('limited')")

        other.goto("/signup")
        _fill(other, {"username": "one-too-many", "password": PASSWORD, "password2": PASSWORD})
        _submit(other)
        assert "too many" in other.page.get_by_role("alert").text_content().lower()
        assert _refusals_only(me) == [] and _refusals_only(other) == []
    finally:
        me.close()
        other.close()


def test_password_reset_by_e_mail_end_to_end(browser, site, shots):
    """Sign up with an address; forget the password; the mail (in Hungarian, as the page) carries a link that
    opens the app's new-password form; the new password logs in, and the link is dead afterwards."""
    s = site(False)
    me = Client(browser, s.url, PHONE, locale="hu-HU")
    address = f"feledekeny{next(_serial)}@pelda.hu"
    try:
        name = _signup(me, email=address)
        _confirm_address(me, s, address)  # a link to the address first: resets go there only once it is opened
        me.page.screenshot(path=str(shots / "confirm-email-hu-phone.png"))
        me.goto("/")
        me.page.click("[data-testid=username]")
        me.page.wait_for_selector("[data-testid=logout]")
        me.page.click("[data-testid=logout]")
        me.page.wait_for_selector("a[href='/login']")
        me.goto("/login")
        me.page.click("[data-testid=forgot]")
        me.page.wait_for_url("**/reset")
        me.page.screenshot(path=str(shots / "reset-request-hu-phone.png"))
        me.page.fill("input[name=email]", address.upper())  # any case finds the account
        _submit(me)
        me.page.wait_for_selector("[data-testid=reset-sent]")
        assert address.upper() in me.page.text_content("[data-testid=reset-sent]")
        me.page.screenshot(path=str(shots / "reset-sent-hu-phone.png"))

        body = _body(_mail_to(s, address, nth=1))
        assert name in body
        assert "jelszó" in body.lower()
        link = re.search(r"(http://\S+/reset/[^/\s]+/[^/\s]+)", body).group(1)
        assert link.startswith(s.url + "/reset/")

        me.page.goto(link)
        me.page.wait_for_selector("[data-testid=reset-form]")
        assert me.page.text_content("h1") == "Válassz új jelszót"
        _fill(me, {"new_password": NEW_PASSWORD, "new_password2": NEW_PASSWORD[:-1]})
        _submit(me)
        assert "nem egyezik" in _error(me, "new_password2")
        _wait_focus(me, "new_password2")
        me.page.screenshot(path=str(shots / "reset-new-errors-hu-phone.png"))
        me.page.fill("input[name=new_password2]", NEW_PASSWORD)
        _submit(me)
        me.page.wait_for_url("**/login?reset=done")
        # The log-in screen may still be loading (its spinner is a status too): wait for the notice itself.
        me.page.wait_for_selector("[role=status]:has-text('Az új jelszavad beállítva')")
        me.page.screenshot(path=str(shots / "login-after-reset-hu-phone.png"))
        _fill(me, {"username": name.upper(), "password": NEW_PASSWORD})
        _submit(me)
        me.page.wait_for_selector(f"[data-testid=username]:text-is('{name}')")

        # Used once, the link is dead: the page says so before any form, and offers a new one.
        me.page.goto(link)
        me.page.wait_for_selector("[data-testid=reset-link-bad]")
        assert "felhasználták" in me.page.get_by_role("alert").text_content()
        assert me.page.locator("input[name=new_password]").count() == 0
        me.page.wait_for_selector("[data-testid=ask-again]")
        me.page.screenshot(path=str(shots / "reset-dead-link-hu-phone.png"))
        assert _refusals_only(me) == []
    finally:
        me.close()
    # The same pages in English and on a desktop, for the eye.
    for lang, device, viewport in (("en", "phone", PHONE), ("en", "desktop", DESKTOP), ("hu", "desktop", DESKTOP)):
        look = Client(browser, s.url, viewport, locale=LOCALES[lang])
        try:
            look.goto("/reset")
            look.page.wait_for_selector("input[name=email]")
            look.page.screenshot(path=str(shots / f"reset-request-{lang}-{device}.png"))
            look.page.goto(link)
            look.page.wait_for_selector("[data-testid=reset-link-bad]")
            look.page.screenshot(path=str(shots / f"reset-dead-link-{lang}-{device}.png"))
            assert _refusals_only(look) == []
        finally:
            look.close()


def test_the_account_page_changes_address_password_and_language(browser, site, shots):
    s = site(False)
    me = Client(browser, s.url, DESKTOP)
    try:
        name = _signup(me)
        # A lobby that does not exist (the room is for signed-in players; a visitor is asked to log in first).
        me.goto("/lobby/987654")
        me.page.wait_for_selector("[data-testid=not-found]:has-text('no such lobby: 987654')")
        me.page.click("[data-testid=username]")
        me.page.wait_for_selector("[data-testid=email-form]")
        assert me.page.text_content("h1") == "Your account"
        assert me.page.title().startswith("Your account · ")

        # The address needs the current password; a wrong one is that field's error, and it takes the focus.
        address = f"acct{next(_serial)}@example.org"
        form = "[data-testid=email-form]"
        me.page.fill(f"{form} input[name=email]", address)
        me.page.fill(f"{form} input[name=password]", "not-my-password")
        _submit(me, form)
        assert "wrong" in _error(me, "password")
        _wait_focus(me, "password")
        me.page.fill(f"{form} input[name=password]", PASSWORD)
        _submit(me, form)
        # It waits for the link mailed to it; opening the link makes it the account's.
        me.page.wait_for_selector(f"[data-testid=email-pending]:has-text('{address}')")
        me.page.wait_for_selector(f"{form} [role=status]:has-text('open the link')")
        _full_page(me, shots / "account-email-pending-en-desktop.png")
        _confirm_address(me, s, address)
        me.page.click("a[href='/account']")
        me.page.wait_for_selector(f"[data-testid=email-now]:has-text('{address}')")
        assert me.page.locator("[data-testid=email-pending]").count() == 0

        form = "[data-testid=password-form]"
        me.page.fill(f"{form} input[name=old_password]", PASSWORD)
        me.page.fill(f"{form} input[name=new_password]", "123")
        me.page.fill(f"{form} input[name=new_password2]", "1234")
        _submit(me, form)
        assert "too short" in _error(me, "new_password") and "differ" in _error(me, "new_password2")
        _wait_focus(me, "new_password")
        _full_page(me, shots / "account-errors-en-desktop.png")
        me.page.fill(f"{form} input[name=old_password]", "wrong-again")
        me.page.fill(f"{form} input[name=new_password]", NEW_PASSWORD)
        me.page.fill(f"{form} input[name=new_password2]", NEW_PASSWORD)
        _submit(me, form)
        assert "wrong" in _error(me, "old_password")
        me.page.fill(f"{form} input[name=old_password]", PASSWORD)
        _submit(me, form)
        me.page.wait_for_selector(f"{form} [role=status]:has-text('changed')")
        assert me.page.input_value(f"{form} input[name=new_password]") == ""

        # Language: the page switches in place and the account keeps it.
        me.page.check("[data-testid=language-hu]")
        me.page.wait_for_function("() => document.documentElement.lang === 'hu'")
        assert me.page.text_content("h1") == "Fiókod"
        account = me.page.request.get(f"{s.url}/api/auth/me/").json()
        assert (account["username"], account["email"], account["language"]) == (name, address, "hu")
        _full_page(me, shots / "account-hu-desktop.png")
        me.page.set_viewport_size(PHONE)
        _full_page(me, shots / "account-hu-phone.png")
        me.page.check("[data-testid=language-en]")
        me.page.wait_for_function("() => document.documentElement.lang === 'en'")
        _full_page(me, shots / "account-en-phone.png")
        me.page.set_viewport_size(DESKTOP)
        _full_page(me, shots / "account-en-desktop.png")

        me.page.click("[data-testid=logout]")
        me.page.wait_for_url(s.url + "/")
        me.page.wait_for_selector("a[href='/login']")
        me.goto("/login")
        _fill(me, {"username": name, "password": NEW_PASSWORD})
        _submit(me)
        me.page.wait_for_selector(f"[data-testid=username]:text-is('{name}')")
        assert _refusals_only(me) == []
    finally:
        me.close()


def test_a_sign_up_never_tells_whether_an_address_has_an_account(browser, site, shots):
    """Two sign-ups, one with an address another account confirmed and one with a fresh address: the same
    screens after, the owner gets a note naming the newcomer, the fresh address a confirmation link; a
    used confirmation link says so."""
    s = site(False)
    owner, taker, fresh = (Client(browser, s.url, PHONE, locale="hu-HU") for _ in range(3))
    taken_address, fresh_address = f"foglalt{next(_serial)}@pelda.hu", f"friss{next(_serial)}@pelda.hu"
    try:
        owner_name = _signup(owner, email=taken_address)
        _confirm_address(owner, s, taken_address)
        screens = []
        for client, address in ((taker, taken_address), (fresh, fresh_address)):
            _signup(client, email=address)
            client.page.click("[data-testid=username]")
            client.page.wait_for_selector("[data-testid=email-pending]")
            screens.append(re.sub(r"\S+@\S+", "@", client.page.text_content("[data-testid=email-pending]")))
        assert screens[0] == screens[1] and "Megerősítésre vár" in screens[0]
        taker.page.screenshot(path=str(shots / "signup-taken-address-hu-phone.png"))
        note = _body(_mail_to(s, taken_address, nth=1))
        assert owner_name in note and taker.name in note and "/reset" in note and "confirm-email" not in note
        _confirm_address(fresh, s, fresh_address)
        fresh.page.goto(re.search(r"(http://\S+/confirm-email/\S+)", _body(_mail_to(s, fresh_address))).group(1))
        fresh.page.wait_for_selector("[data-testid=confirm-bad]")
        assert "felhasználták" in fresh.page.get_by_role("alert").text_content()
        fresh.page.screenshot(path=str(shots / "confirm-email-used-hu-phone.png"))
        for client in (owner, taker):
            assert _refusals_only(client) == []
    finally:
        for client in (owner, taker, fresh):
            client.close()


@pytest.mark.parametrize("debug", [False, True], ids=["debug-off", "debug-on"])
def test_the_app_s_own_not_found_screen(browser, site, shots, debug):
    s = site(debug)
    for lang in ("en", "hu"):
        for device, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            me = Client(browser, s.url, viewport, locale=LOCALES[lang])
            try:
                response = me.page.goto(s.url + "/no/such/page")
                assert response.status == 404 and "text/html" in response.headers["content-type"]
                me.page.wait_for_selector("[data-testid=not-found]")
                assert me.page.text_content("h1") == {"en": "Not found", "hu": "Nem található"}[lang]
                assert me.page.title().startswith({"en": "Not found · ", "hu": "Nem található · "}[lang])
                assert "URLconf" not in me.page.content()
                if not debug:
                    me.page.screenshot(path=str(shots / f"notfound-{lang}-{device}.png"))
                me.goto("/match/987654")
                me.page.wait_for_selector("[data-testid=not-found]:has-text('{}')".format(
                    {"en": "no such match: 987654", "hu": "Nincs ilyen játszma: 987654"}[lang]))
                if not debug and device == "phone":
                    me.page.screenshot(path=str(shots / f"notfound-match-{lang}-{device}.png"))
                # Its link leads home.
                me.page.click("[data-testid=not-found] a[href='/']")
                me.page.wait_for_selector("[data-testid=open-lobbies]")
                assert _refusals_only(me) == []
            finally:
                me.close()
