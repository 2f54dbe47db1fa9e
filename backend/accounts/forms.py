"""Django's password reset form, adapted: the link opens the app, accounts are
found by the folded address, and the messages are returned, not sent (the
mail thread sends them: backend.common.mail)."""

from __future__ import annotations

import math

from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.core.mail import EmailMultiAlternatives
from django.template import loader

from backend.accounts.models import fold


class PasswordResetForm(auth_forms.PasswordResetForm):
    def get_users(self, email):
        # Django's own lookup is `email__iexact`, which on SQLite folds ASCII only.
        users = get_user_model()._default_manager.filter(email_key=fold(email), is_active=True)
        return (user for user in users if user.has_usable_password())

    def messages(self, *, domain: str, use_https: bool) -> list[EmailMultiAlternatives]:
        """The reset mails for the validated address (none if no account uses it)."""
        self._messages = []
        self.save(
            domain_override=domain,
            use_https=use_https,
            subject_template_name="accounts/password_reset_subject.txt",
            email_template_name="accounts/password_reset_email.txt",
            extra_email_context={"hours": math.ceil(settings.PASSWORD_RESET_TIMEOUT / 3600)},
        )
        return self._messages

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        self._messages.append(EmailMultiAlternatives(subject, body, from_email, [to_email]))
