import unicodedata

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager as DjangoUserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

USERNAME_TAKEN = _("That username is taken.")
EMAIL_TAKEN = _("An account already uses that e-mail address.")


def fold(text: str) -> str:
    """The comparison key of a name or address: NFKC, then Unicode case folding.

    Done in Python so that every database applies one rule: SQLite's lower()
    and LIKE only fold ASCII, so "Árpád" and "ÁRPÁD" would be two accounts
    there. The second NFKC pass keeps the key normalised after folding
    (Unicode's NFKC_Casefold, closely enough for names).
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


class UserManager(DjangoUserManager):
    def get_by_natural_key(self, username):
        # Log-in (Django's ModelBackend) looks users up here: any spelling of the name finds it.
        return self.get(username_key=fold(username))

    async def aget_by_natural_key(self, username):
        return await self.aget(username_key=fold(username))


class User(AbstractUser):
    """The site's user: the name keeps its spelling, and compares by `username_key`.

    `username_key` and `email_key` are filled on every save (not by
    QuerySet.update or bulk_create) and carry the unique indexes; an e-mail
    address is optional, so `email_key` is NULL when there is none.
    """

    username_key = models.TextField(unique=True, editable=False)
    email_key = models.TextField(unique=True, null=True, editable=False)

    objects = UserManager()
    # The language the site speaks to this user (backend/common/i18n.py); blank until they choose or sign up.
    # Also a database default, so rows written by code that predates the column (an older process during a
    # deploy, a migration's historical model) stay valid.
    language = models.CharField(max_length=8, blank=True, default="", db_default="", choices=settings.LANGUAGES)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"

    def _fill_keys(self) -> None:
        self.username_key = fold(self.username)
        self.email_key = fold(self.email) if self.email else None

    def clean(self):
        # Forms (the admin's included) call this before saving: report a clash
        # of the folded name or address as a field error, not an IntegrityError.
        super().clean()
        self._fill_keys()
        others = type(self)._default_manager.exclude(pk=self.pk)
        errors = {}
        if others.filter(username_key=self.username_key).exists():
            errors["username"] = [USERNAME_TAKEN]
        if self.email_key and others.filter(email_key=self.email_key).exists():
            errors["email"] = [EMAIL_TAKEN]
        if errors:
            raise ValidationError(errors)

    def save(self, *args, **kwargs):
        self._fill_keys()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            update_fields = set(update_fields)
            if "username" in update_fields:
                update_fields.add("username_key")
            if "email" in update_fields:
                update_fields.add("email_key")
            kwargs["update_fields"] = update_fields
        super().save(*args, **kwargs)
