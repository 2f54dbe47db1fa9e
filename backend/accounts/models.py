from django.contrib.auth.models import AbstractUser, UserManager as DjangoUserManager
from django.db import models
from django.db.models.functions import Lower


class UserManager(DjangoUserManager):
    def get_by_natural_key(self, username):
        # Log-in ignores case, matching the case-insensitive uniqueness below.
        return self.get(username__iexact=username)


class User(AbstractUser):
    """The site's user; exists so usernames can be unique regardless of case in the database."""

    objects = UserManager()

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_ci_unique",
                violation_error_message="That username is taken.",
            )
        ]
