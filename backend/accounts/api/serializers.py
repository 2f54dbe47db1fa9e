"""Shapes of the account endpoints. They check types only; the rules (and
their messages) are in backend.accounts.services, which checks every field
at once so a form can show all its errors together."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers


class UserSerializer(serializers.ModelSerializer):
    """A user as anyone may see them (lobbies, matches)."""

    class Meta:
        model = get_user_model()
        fields = ["id", "username"]
        read_only_fields = fields


class MeSerializer(serializers.ModelSerializer):
    """The signed-in user, to themselves: with the language the site speaks to them."""

    email = serializers.CharField(read_only=True, help_text='Where password resets go; "" when none.')
    email_pending = serializers.CharField(source="pending_email", read_only=True,
                                          help_text='An address waiting for its mailed link to be opened; "" when none.')
    language = serializers.SerializerMethodField(help_text='"hu" or "en" (docs/api.md, Languages).')

    class Meta:
        model = get_user_model()
        fields = ["id", "username", "email", "email_pending", "language"]
        read_only_fields = fields

    def get_language(self, user) -> str:
        # Accounts from before languages were saved have none yet: the one this request speaks.
        return user.language or get_language()


class LanguageSerializer(serializers.Serializer):
    language = serializers.ChoiceField(choices=[code for code, _name in settings.LANGUAGES])


def _text(**kwargs):
    """A string field whose absence is left to the service to word (as for an empty one)."""
    return serializers.CharField(max_length=4096, trim_whitespace=False, required=False, allow_blank=True, **kwargs)


def _optional(**kwargs):
    """A confirmation field: checked against its pair when sent."""
    return serializers.CharField(max_length=4096, trim_whitespace=False, required=False, allow_blank=True,
                                 default=None, **kwargs)


def _required(message, **kwargs):
    return serializers.CharField(error_messages={"required": message, "blank": message}, **kwargs)


class CredentialsSerializer(serializers.Serializer):
    username = _required(_("Type your username."), max_length=150, trim_whitespace=True)
    password = _required(_("Type your password."), max_length=4096, trim_whitespace=False, write_only=True)


class SignupSerializer(serializers.Serializer):
    username = _text(help_text="Letters, digits and @ . + - _; at most 150. Compared ignoring case.")
    password = _text(write_only=True)
    password2 = _optional(write_only=True, help_text="The password again; when sent, it must be the same.")
    email = _text(help_text="Optional; where password resets go, once confirmed by the link mailed to it.")


class OptionalCredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, required=False)
    password = serializers.CharField(max_length=4096, trim_whitespace=False, required=False, write_only=True)

    def validate(self, data):
        if ("username" in data) != ("password" in data):
            raise serializers.ValidationError(_("Give both username and password, or neither."))
        return data


class PasswordChangeSerializer(serializers.Serializer):
    old_password = _text()
    new_password = _text()
    new_password2 = _optional(help_text="The new password again; when sent, it must be the same.")


class EmailChangeSerializer(serializers.Serializer):
    password = _text(help_text="The current password.")
    email = _text(help_text='The new address, or "" to remove it.')


class EmailConfirmSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=512, help_text="From the link: /confirm-email/<token>.")
    email = serializers.CharField(read_only=True, help_text="The address now confirmed.")


class PasswordResetSerializer(serializers.Serializer):
    email = _text()


class PasswordResetLinkSerializer(serializers.Serializer):
    uid = serializers.CharField(max_length=64, help_text="From the link: /reset/<uid>/<token>.")
    token = serializers.CharField(max_length=128, help_text="From the link: /reset/<uid>/<token>.")


class PasswordResetConfirmSerializer(PasswordResetLinkSerializer):
    new_password = _text()
    new_password2 = _optional(help_text="The new password again; when sent, it must be the same.")


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(read_only=True)


class ErrorSerializer(serializers.Serializer):
    """The shape of every error answer (docs/api.md, Errors)."""

    code = serializers.CharField()
    message = serializers.CharField()
    fields = serializers.DictField(required=False)
