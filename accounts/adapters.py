from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import ValidationError

from core.tasks import queue_email

from .selectors import institution_for_email


class AccountAdapter(DefaultAccountAdapter):
    """Signup only with an e-mail domain an institution accepts; mail leaves through Celery."""

    def clean_email(self, email):
        email = super().clean_email(email)
        if institution_for_email(email) is None:
            domain = email.rsplit("@", 1)[-1]
            raise ValidationError(
                f"Use your campus e-mail address: no institution here accepts addresses at {domain}."
            )
        return email

    def send_mail(self, template_prefix, email, context):
        queue_email(self.render_mail(template_prefix, email, context))
