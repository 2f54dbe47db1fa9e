"""Django's password reset form, adapted: the link opens the app, accounts are
found by the folded address, and the message leaves on the mail thread."""

from __future__ import annotations

import math

from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.core.mail import EmailMultiAlternatives
from django.template import loader

from backend.accounts.models import fold
from backend.common import mail


class PasswordResetForm(auth_forms.PasswordResetForm):
    def get_users(self, email):
        # Django's own lookup is `email__iexact`, which on SQLite folds ASCII only.
        users = get_user_model()._default_manager.filter(email_key=fold(email), is_active=True)
        return (user for user in users if user.has_usable_password())

    def save(self, *, request, use_https: bool):
        super().save(
            request=request,
            use_https=use_https,
            subject_template_name="accounts/password_reset_subject.txt",
            email_template_name="accounts/password_reset_email.txt",
            extra_email_context={"hours": math.ceil(settings.PASSWORD_RESET_TIMEOUT / 3600)},
        )

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email,
                  html_email_template_name=None):
        # Rendered here, in the request's language; sent later (backend.common.mail says why).
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        mail.send_later(EmailMultiAlternatives(subject, body, from_email, [to_email]),
                        f"the password reset e-mail of user {context['user'].pk}")
