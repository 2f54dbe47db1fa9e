"""Account operations; the DRF views only translate HTTP to these calls."""

from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from backend.common.errors import AppError

User = get_user_model()
USERNAME_TAKEN = "That username is taken."


def _check_password(password: str, user) -> None:
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        raise AppError("bad_message", " ".join(exc.messages), fields={"password": exc.messages}) from None


def sign_up(username: str, password: str):
    """Create an active user; usernames are unique whatever their case."""
    username = username.strip()
    candidate = User(username=username)
    try:
        candidate.clean_fields(exclude=[f.name for f in User._meta.fields if f.name != "username"])
    except ValidationError as exc:
        messages = exc.message_dict.get("username", exc.messages)
        raise AppError("bad_message", " ".join(messages), fields={"username": messages}) from None
    if User.objects.filter(username__iexact=username).exists():
        raise AppError("conflict", USERNAME_TAKEN, fields={"username": [USERNAME_TAKEN]})
    _check_password(password, candidate)
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, password=password)
    except IntegrityError:
        # Lost a race with another sign-up of the same name: the DB constraint decided.
        raise AppError("conflict", USERNAME_TAKEN, fields={"username": [USERNAME_TAKEN]}) from None


def check_credentials(request, username: str, password: str):
    user = authenticate(request, username=username.strip(), password=password)
    if user is None:
        raise AppError("unauthenticated", "Wrong username or password.")
    return user


def change_password(user, old_password: str, new_password: str) -> None:
    """Set a new password and revoke the API token, so a leaked token dies with the old password."""
    if not user.check_password(old_password):
        raise AppError("bad_message", "Your current password is wrong.", fields={"old_password": ["Wrong password."]})
    _check_password(new_password, user)
    with transaction.atomic():
        user.set_password(new_password)
        user.save(update_fields=["password"])
        Token.objects.filter(user=user).delete()


def token_for(user) -> str:
    token, _ = Token.objects.get_or_create(user=user)
    return token.key
