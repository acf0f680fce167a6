from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.shortcuts import redirect

from core.errors import DomainError
from core.tasks import queue_email

from .selectors import institution_for_email, password_refused_for
from .services import email_change_confirm


class SiteName:
    """What allauth's e-mails call the site: the name in SITE_NAME, the host of SITE_URL."""

    @property
    def name(self) -> str:
        return settings.SITE_NAME

    @property
    def domain(self) -> str:
        return urlsplit(settings.SITE_URL).netloc


def on_site(url):
    """An absolute link allauth built from the request's Host header, moved onto SITE_URL: a
    link in mail never trusts the Host a request came with (a reset link sent for a poisoned
    Host would carry the key to another site), and names the port the site really runs on."""
    if not isinstance(url, str) or not urlsplit(url).netloc:
        return url
    parts = urlsplit(url)
    return settings.SITE_URL + parts.path + (f"?{parts.query}" if parts.query else "")


class AccountAdapter(DefaultAccountAdapter):
    """Signup only with an e-mail domain an institution accepts; mail leaves through Celery."""

    def clean_email(self, email):
        email = super().clean_email(email)
        # allauth would cut a longer address to the column's length and store that: a second
        # signup with the same long address then collides with the cut one.
        longest = get_user_model()._meta.get_field("email").max_length
        if len(email) > longest:
            raise ValidationError(f"An e-mail address can be at most {longest} characters long.")
        if institution_for_email(email) is None:
            domain = email.rsplit("@", 1)[-1]
            raise ValidationError(
                f"Use your campus e-mail address: no institution here accepts addresses at {domain}."
            )
        return email

    def confirm_email(self, request, email_address):
        """A verification link followed: through the service, which keeps a changed address
        in the institution's domains and never lets two accounts share one."""
        try:
            return email_change_confirm(request=request, email_address=email_address)
        except DomainError as error:
            self.add_message(request, messages.ERROR, message=error.message)
            return False

    def send_mail(self, template_prefix, email, context):
        # allauth greets "Hello from {site name}!"; without django.contrib.sites it has no name
        # ("Hello from !"): the site's own name and address stand in. Its own send_mail, which
        # this replaces, also gives the templates the address the mail is about ("an account
        # using that email address already exists: {{ email }}").
        context = {
            "email": email,
            **{
                key: on_site(value) if key.endswith("_url") else value
                for key, value in context.items()
            },
            "current_site": SiteName(),
        }
        queue_email(self.render_mail(template_prefix, email, context))

    def pre_login(self, request, user, **kwargs):
        """A student of an institution that requires its campus sign-in, whose account is joined
        to the campus identity, signs in with the campus account from then on: their password
        no longer logs them in. One not yet joined still may, to join (allauth's connect)."""
        refusal = super().pre_login(request, user, **kwargs)
        if refusal is not None:
            return refusal
        if (kwargs.get("signal_kwargs") or {}).get("sociallogin") is not None:
            return None
        sign_in = password_refused_for(user)
        if sign_in is None:
            return None
        from allauth.account.internal.stagekit import clear_login

        clear_login(request)
        self.add_message(
            request,
            messages.ERROR,
            message=f"{sign_in.institution} students sign in with their campus account.",
        )
        return redirect("campus_sign_in", sign_in.institution.slug)

    def get_client_ip(self, request):
        """The client's address for the rate limits (settings: TRUSTED_PROXY_COUNT). A request
        whose X-Forwarded-For has fewer entries than the proxies we trust did not come through
        them all: allauth raises ImproperlyConfigured (a 500); its own address is the client."""
        try:
            return super().get_client_ip(request)
        except ImproperlyConfigured:
            return request.META["REMOTE_ADDR"]
