"""Account operations; the DRF views only translate HTTP to these calls.

Every check of a secret (a password, a reset link) and every account created
counts against a rate limit (backend.common.ratelimit) for the client's
address, `client` below; input refused by validation is refused before
anything is counted, so a mistyped form costs no one their allowance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, connection, transaction
from django.template import loader
from django.utils import translation
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.authtoken.models import Token

from backend.accounts.forms import PasswordResetForm
from backend.accounts.models import EMAIL_TAKEN, USERNAME_TAKEN, fold
from backend.common import mail, ratelimit
from backend.common.addresses import throttle_key
from backend.common.errors import AppError, fields_message

User = get_user_model()


# Django's own words for these are formal in Hungarian and cite "@/./+/-/_"; a player reads these instead.
_PLAIN = {
    ("username", "invalid"): gettext_lazy("A username may hold only letters, digits and the signs @ . + - _ (no spaces)."),
    ("username", "max_length"): gettext_lazy("A username may be at most 150 characters long."),
    ("email", "invalid"): gettext_lazy("That is not a whole e-mail address; it looks like name@example.org."),
    ("password", "password_entirely_numeric"): gettext_lazy(
        "A password of digits only is easy to guess: put letters in it too."),
}


def _plain(field: str, errors: list[ValidationError]) -> list[str]:
    """The sentences of a field's errors, in the site's own words where it has them, each once (a password
    on both common-password lists, Django's and the Hungarian one, is too common once)."""
    return list(dict.fromkeys(str(_PLAIN.get((field, e.code), e.messages[0])) for e in errors))


def _refuse(errors: dict[str, list[str]], code: str = "bad_message") -> AppError:
    return AppError(code, fields_message(errors), fields={k: [str(m) for m in v] for k, v in errors.items()})


def _password_errors(password: str, password2: str | None, user, field: str = "password") -> dict[str, list[str]]:
    """Django's validators on `password` (for `user`), and the confirmation, when given, must repeat it."""
    errors = {}
    if not password:
        errors[field] = [_("Choose a password.")]
    else:
        try:
            validate_password(password, user=user)
        except ValidationError as exc:
            errors[field] = _plain("password", exc.error_list)
    if password2 is not None and password2 != password:
        errors[f"{field}2"] = [_("The two passwords differ.")]
    return errors


def _email_errors(candidate) -> dict[str, list[str]]:
    if not candidate.email:
        return {}
    try:
        candidate.clean_fields(exclude=[f.name for f in User._meta.fields if f.name != "email"])
    except ValidationError as exc:
        return {"email": _plain("email", exc.error_dict["email"])}
    return {}


def _email_taken(email: str, exclude_pk=None) -> bool:
    return bool(email) and User.objects.filter(email_key=fold(email)).exclude(pk=exclude_pk).exists()


@dataclass(frozen=True)
class MailSite:
    """What a mail needs of the request that causes it: the host its links name (checked against
    ALLOWED_HOSTS), the scheme, and the language to write in."""

    domain: str
    use_https: bool
    language: str

    @classmethod
    def of(cls, request) -> MailSite:
        return cls(request.get_host(), request.is_secure(), translation.get_language())


_CONFIRM_SALT = "accounts.email-confirm"


def _propose_email(user, email: str, site: MailSite) -> None:
    """Keep `email` waiting for confirmation and mail it, after the commit: a link that confirms it, or,
    when another account already uses the address, a note to that account's owner (someone tried to use
    it; here is the way to their own account). The answer is the same either way, and so is its timing:
    the lookup happens on the mail thread. At most THROTTLE_RESET mails an hour go to one address
    (reset mails included); over it, nothing is sent and nothing is said."""
    user.pending_email = email
    user.save(update_fields=["pending_email"])
    try:
        ratelimit.take("reset", f"email:{fold(email)}")
    except AppError:
        return
    token = signing.dumps({"u": user.pk, "e": email}, salt=_CONFIRM_SALT, compress=True)
    name = user.get_username()

    def compose():
        owner = (User.objects.filter(email_key=fold(email), is_active=True).exclude(pk=user.pk)
                 .values_list("username", flat=True).first())
        context = {"name": name, "domain": site.domain, "protocol": "https" if site.use_https else "http",
                   "token": token, "owner": owner, "hours": math.ceil(settings.PASSWORD_RESET_TIMEOUT / 3600)}
        kind = "email_in_use" if owner is not None else "email_confirm"
        with translation.override(site.language):
            subject = "".join(loader.render_to_string(f"accounts/{kind}_subject.txt", context).splitlines())
            body = loader.render_to_string(f"accounts/{kind}.txt", context)
        return [EmailMultiAlternatives(subject, body, None, [email])]

    transaction.on_commit(lambda: mail.send_later(compose, "an address confirmation e-mail"))


def confirm_email(token: str):
    """The address a confirmation link names becomes its account's `email`; the account, which is not logged in."""
    message = _("This confirmation link is wrong, used or expired. Save the address again on your account "
                "page to get a new one.")
    try:
        data = signing.loads(token, salt=_CONFIRM_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:
        data = None
    user = None
    if isinstance(data, dict) and isinstance(data.get("u"), int) and data.get("e"):
        user = User.objects.filter(pk=data["u"], is_active=True).first()
    # A newer address asked for, or this one confirmed already: the link is used up.
    if user is None or user.pending_email != data["e"]:
        raise AppError("bad_message", message, fields={"token": [message]})
    if _email_taken(user.pending_email, exclude_pk=user.pk):  # another account confirmed it first
        raise _refuse({"email": [EMAIL_TAKEN]}, "conflict")
    user.email, user.pending_email = user.pending_email, ""
    try:
        with transaction.atomic():
            user.save(update_fields=["email", "pending_email"])
    except IntegrityError:
        raise _refuse({"email": [EMAIL_TAKEN]}, "conflict") from None
    return user


_LOOKALIKE_LOCK = 0x6C6B  # pg_advisory_xact_lock's first key: look-alike keys at sign-up ("lk")


def _hold_lookalike(key: str) -> None:
    """Until the transaction ends, no other sign-up of a name with look-alike key `key` gets past here,
    so the check made after it sees any account written before. The key is no unique index (accounts
    older than the check may clash). SQLite's transactions here are IMMEDIATE: they already wait for
    each other at their start."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [_LOOKALIKE_LOCK, key])


def sign_up(username: str, password: str, *, password2: str | None, email: str, client: str, site: MailSite,
            language: str = ""):
    """Create an active user who keeps `language`. Names are unique under Unicode case folding
    (models.fold). An address given waits for confirmation (_propose_email): the answer never says
    whether another account uses it."""
    username, email = username.strip(), User.objects.normalize_email(email.strip())
    candidate = User(username=User.normalize_username(username), email=email)
    errors = {}
    if not username:
        errors["username"] = [_("Choose a username.")]
    else:
        try:
            candidate.clean_fields(exclude=[f.name for f in User._meta.fields if f.name != "username"])
        except ValidationError as exc:
            errors["username"] = _plain("username", exc.error_dict["username"])
    problem = None
    if "username" not in errors:
        candidate.fill_keys()
        problem = candidate.name_problem()
        if problem:
            errors["username"] = [problem[1]]
    errors.update(_password_errors(password, password2, candidate))
    errors.update(_email_errors(candidate))
    if errors:
        # Someone has the name (or one that looks like it): a conflict; anything else is the form's fault.
        taken_only = list(errors) == ["username"] and problem is not None and problem[0] != "mixed"
        raise _refuse(errors, "conflict" if taken_only else "bad_message")
    ratelimit.take("signup", throttle_key(client))
    try:
        with transaction.atomic():
            _hold_lookalike(candidate.username_lookalike)
            problem = candidate.name_problem()  # again: a look-alike may have signed up since the check above
            if problem:
                raise _refuse({"username": [problem[1]]}, "conflict")
            user = User.objects.create_user(username=candidate.username, password=password, language=language)
            if email:
                _propose_email(user, email, site)
            return user
    except IntegrityError:
        # Lost a race with another sign-up of the same name: the unique index decided.
        raise _refuse({"username": [USERNAME_TAKEN]}, "conflict") from None


def check_credentials(request, username: str, password: str, *, client: str):
    """The user these credentials name, for log-in and API tokens (any spelling of the name)."""
    ratelimit.take("login", throttle_key(client))
    user = authenticate(request, username=username.strip(), password=password)
    if user is None:
        raise AppError("unauthenticated", _("Wrong username or password."))
    return user


def _check_current_password(user, password: str, client: str) -> None:
    # Counted per address and per account: a stolen session should not get
    # unlimited guesses at the password from many addresses either.
    ratelimit.take("password", throttle_key(client), f"user:{user.pk}")
    if not user.check_password(password):
        message = _("Your current password is wrong.")
        raise AppError("bad_message", message, fields={"old_password": [message]})


def _set_password(user, password: str) -> None:
    """Save a new password and revoke the API token, so a leaked token dies
    with the old password (sessions elsewhere end too: their hash changes)."""
    with transaction.atomic():
        user.set_password(password)
        user.save(update_fields=["password"])
        Token.objects.filter(user=user).delete()


def change_password(user, old_password: str, new_password: str, *, new_password2: str | None, client: str) -> None:
    errors = _password_errors(new_password, new_password2, user, field="new_password")
    if errors:
        raise _refuse(errors)
    _check_current_password(user, old_password, client)
    _set_password(user, new_password)


def change_email(user, password: str, email: str, *, client: str, site: MailSite) -> None:
    """Remove (empty) the address password resets go to, or propose a new one, which counts once its
    owner opens the link mailed to it (_propose_email); needs the current password."""
    email = User.objects.normalize_email(email.strip())
    candidate = User(username=user.username, email=email)
    errors = _email_errors(candidate)
    if errors:
        raise _refuse(errors)
    _check_current_password(user, password, client)
    with transaction.atomic():
        if not email or fold(email) == user.email_key:  # removed, or the address it has: nothing to confirm
            user.email, user.pending_email = email or "", ""
            user.save(update_fields=["email", "pending_email"])
        else:
            _propose_email(user, email, site)


def request_password_reset(request, email: str, *, client: str) -> None:
    """Mail a reset link if an active account uses `email`; the same answer, at
    the same speed, otherwise: the lookup itself happens on the mail thread.

    Counted per address (over the limit: rate_limited) and per target
    address, where going over sends nothing but answers the same, so the
    limit neither floods anyone's mailbox nor tells whether the address exists.
    """
    email = email.strip()
    if not email:
        raise _refuse({"email": [_("Type the e-mail address of your account.")]})
    form = PasswordResetForm({"email": email})
    if not form.is_valid():
        raise _refuse({"email": _plain("email", form.errors.as_data()["email"])})
    ratelimit.take("reset", f"address:{throttle_key(client)}")
    try:
        ratelimit.take("reset", f"email:{fold(form.cleaned_data['email'])}")
    except AppError:
        return
    # The link names the host the request came to (checked against
    # ALLOWED_HOSTS); the mail is in the language of the request.
    site = MailSite.of(request)

    def compose():
        with translation.override(site.language):
            return form.messages(domain=site.domain, use_https=site.use_https)

    mail.send_later(compose, "a password reset e-mail")


def _user_for_uid(uid: str):
    try:
        pk = force_str(urlsafe_base64_decode(uid))
    except (TypeError, ValueError):
        return None
    if not (pk.isascii() and pk.isdigit() and len(pk) <= 18):
        return None
    return User.objects.filter(pk=int(pk), is_active=True).first()


def _reset_link_user(uid: str, token: str, client: str):
    """The account a reset link names, if the link still works (counted: a check of a secret)."""
    ratelimit.take("password", throttle_key(client))
    user = _user_for_uid(uid)
    if user is None or not default_token_generator.check_token(user, token):
        message = _("This password reset link is wrong, used or expired. Ask for a new one.")
        raise AppError("bad_message", message, fields={"token": [message]})
    return user


def check_password_reset(uid: str, token: str, *, client: str) -> None:
    """Whether a reset link still works, so the page can say so before anyone types a new password."""
    _reset_link_user(uid, token, client)


def confirm_password_reset(uid: str, token: str, new_password: str, *, new_password2: str | None, client: str):
    """Set the password of the account a reset link names; the link then stops working."""
    errors = _password_errors(new_password, new_password2, None, field="new_password")
    if errors:
        raise _refuse(errors)
    user = _reset_link_user(uid, token, client)
    # The validators again, now that the user is known (similarity to the name or address).
    errors = _password_errors(new_password, None, user, field="new_password")
    if errors:
        raise _refuse(errors)
    _set_password(user, new_password)
    return user


def save_language(user, language: str) -> None:
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])


def token_for(user) -> str:
    token, _created = Token.objects.get_or_create(user=user)
    return token.key
