from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager as DjangoUserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from .keys import fold
from .lookalikes import lookalike_key, mixed_scripts

USERNAME_TAKEN = _("That username is taken.")
EMAIL_TAKEN = _("An account already uses that e-mail address.")
MIXED_SCRIPTS = _("Write a username in one alphabet: letters of different scripts (Latin with Cyrillic or Greek, "
                  "say) can imitate other names.")


def looks_like(name: str) -> str:
    return _('That name looks too much like the name of another player, "%(name)s": choose one that can be '
             'told apart.') % {"name": name}


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
    # Names that look alike share it (lookalikes.py); not unique: accounts older than the check may clash
    # (manage.py lookalike_names lists them), so sign-up and the admin's form compare it.
    username_lookalike = models.TextField(default="", db_default="", db_index=True, editable=False)
    # An address typed at sign-up or on the account page, waiting for its owner to open the link mailed
    # to it (services.confirm_email); only then is it `email`. Never unique: it proves nothing yet.
    pending_email = models.EmailField(blank=True, default="", db_default="")

    objects = UserManager()
    # The language the site speaks to this user (backend/common/i18n.py); blank until they choose or sign up.
    # Also a database default, so rows written by code that predates the column (an older process during a
    # deploy, a migration's historical model) stay valid.
    language = models.CharField(max_length=8, blank=True, default="", db_default="", choices=settings.LANGUAGES)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"

    def fill_keys(self) -> None:
        self.username_key = fold(self.username)
        self.username_lookalike = lookalike_key(self.username)
        self.email_key = fold(self.email) if self.email else None

    def name_problem(self) -> tuple[str, str] | None:
        """Why this name may not be taken (keys filled), as (kind, sentence): "taken" (a folded clash),
        "lookalike" (another name's look-alike key), "mixed" (scripts); None if it may.
        An account keeping the name it has is not judged again (staff may still edit an old look-alike)."""
        manager = type(self)._default_manager
        others = manager.exclude(pk=self.pk)
        if others.filter(username_key=self.username_key).exists():
            return "taken", str(USERNAME_TAKEN)
        if self.pk is not None and manager.filter(pk=self.pk, username=self.username).exists():
            return None
        if mixed_scripts(self.username):
            return "mixed", str(MIXED_SCRIPTS)
        twin = others.filter(username_lookalike=self.username_lookalike).values_list("username", flat=True).first()
        return ("lookalike", looks_like(twin)) if twin is not None else None

    def clean(self):
        # Forms (the admin's included) call this before saving: report a clash
        # of the folded name or address as a field error, not an IntegrityError.
        super().clean()
        self.fill_keys()
        errors = {}
        problem = self.name_problem()
        if problem:
            errors["username"] = [problem[1]]
        if self.email_key and type(self)._default_manager.exclude(pk=self.pk).filter(email_key=self.email_key).exists():
            errors["email"] = [EMAIL_TAKEN]
        if errors:
            raise ValidationError(errors)

    def save(self, *args, **kwargs):
        self.fill_keys()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            update_fields = set(update_fields)
            if "username" in update_fields:
                update_fields.update(("username_key", "username_lookalike"))
            if "email" in update_fields:
                update_fields.add("email_key")
            kwargs["update_fields"] = update_fields
        super().save(*args, **kwargs)
