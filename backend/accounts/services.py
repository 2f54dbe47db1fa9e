"""Account operations; the DRF views only translate HTTP to these calls.

Every check of a secret (a password, a reset link) and every account created
counts against a rate limit (backend.common.ratelimit) for the client's
address, `client` below; input refused by validation is refused before
anything is counted, so a mistyped form costs no one their allowance.
"""

from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
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


def sign_up(username: str, password: str, *, password2: str | None, email: str, client: str, language: str = ""):
    """Create an active user who keeps `language`. Names and addresses are unique under Unicode case
    folding (models.fold); a taken e-mail address is told only to a counted attempt."""
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
    # Only now does it count: whether an address is in use is an account
    # lookup, limited like a log-in.
    ratelimit.take("signup", throttle_key(client))
    if _email_taken(email):
        raise _refuse({"email": [EMAIL_TAKEN]}, "conflict")
    try:
        with transaction.atomic():
            return User.objects.create_user(username=candidate.username, email=email, password=password, language=language)
    except IntegrityError:
        # Lost a race with another sign-up of the same name or address: the unique indexes decided.
        field = "email" if _email_taken(email) else "username"
        raise _refuse({field: [EMAIL_TAKEN if field == "email" else USERNAME_TAKEN]}, "conflict") from None


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


def change_email(user, password: str, email: str, *, client: str) -> None:
    """Set or remove (empty) the address password resets go to; needs the current password."""
    email = User.objects.normalize_email(email.strip())
    candidate = User(username=user.username, email=email)
    errors = _email_errors(candidate)
    if errors:
        raise _refuse(errors)
    _check_current_password(user, password, client)
    if _email_taken(email, exclude_pk=user.pk):
        raise _refuse({"email": [EMAIL_TAKEN]}, "conflict")
    user.email = email
    try:
        with transaction.atomic():
            user.save(update_fields=["email"])
    except IntegrityError:
        raise _refuse({"email": [EMAIL_TAKEN]}, "conflict") from None


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
    domain, use_https, language = request.get_host(), request.is_secure(), translation.get_language()

    def compose():
        with translation.override(language):
            return form.messages(domain=domain, use_https=use_https)

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
