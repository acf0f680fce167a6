"""django-allauth's social sign-in, as campus sign-in: the institution's mapping reads who the
campus says signed in, refuses what it must (a page, nothing created), registers a new student
with the verified address and campus ID the campus sent, and brings a returning student's
eligibility in line with the campus's word (L10)."""

from allauth.account.models import EmailAddress
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.shortcuts import render

from core.errors import DomainError

from .campus_identity import CampusIdentity, Refusal, identity_refusal, read_identity
from .models import CampusSignIn, PlayerProfile
from .services.campus_sign_in import campus_sign_in_again, campus_student_register


def refuse(request, message: str, sign_in: CampusSignIn | None = None):
    """The page a refused campus sign-in ends on (403): why, in words, and where to go."""
    return render(
        request,
        "accounts/campus_sign_in_refused.html",
        {"message": message, "sign_in": sign_in},
        status=403,
    )


def raw_attributes(sociallogin) -> dict:
    """What the provider sent: SAML's attributes, or OpenID Connect's ID-token claims with the
    userinfo claims over them."""
    data = sociallogin.account.extra_data or {}
    if "id_token" in data or "userinfo" in data:
        return {**(data.get("id_token") or {}), **(data.get("userinfo") or {})}
    return dict(data)


def sign_in_of(sociallogin) -> CampusSignIn | None:
    app = getattr(sociallogin.provider, "app", None)
    if app is None or app.pk is None:
        return None
    return CampusSignIn.objects.select_related("institution").filter(social_app=app).first()


class CampusSocialAccountAdapter(DefaultSocialAccountAdapter):
    def is_auto_signup_allowed(self, request, sociallogin):
        return True

    def _identity(self, request, sociallogin) -> tuple[CampusSignIn, CampusIdentity]:
        cached = getattr(sociallogin, "_campus", None)
        if cached:
            return cached
        sign_in = sign_in_of(sociallogin)
        if sign_in is None or not sign_in.enabled:
            raise ImmediateHttpResponse(
                refuse(request, "This sign-in is not connected to any institution here.")
            )
        raw = raw_attributes(sociallogin)
        identity = read_identity(raw, sign_in.mapping())
        institution = sign_in.institution
        refusal = identity_refusal(
            identity,
            institution_name=institution.name,
            domains=institution.domains,
            campus_id_pattern=institution.campus_id_pattern,
            campus_id_required=sign_in.campus_id_required,
        )
        if refusal is None and raw.get("email_verified") in (False, "false", "False"):
            refusal = Refusal(
                f"{institution.name}'s sign-in says your e-mail address is not verified."
            )
        if refusal is not None:
            raise ImmediateHttpResponse(refuse(request, refusal.message, sign_in))
        sociallogin._campus = (sign_in, identity)
        return sign_in, identity

    def pre_social_login(self, request, sociallogin):
        sign_in, identity = self._identity(request, sociallogin)
        # The campus vouches for the address it sent: it arrives verified (no mail to follow).
        sociallogin.email_addresses = [
            EmailAddress(email=identity.email, verified=True, primary=True)
        ]
        if sociallogin.user is not None and not sociallogin.is_existing:
            sociallogin.user.email = identity.email
        connecting = sociallogin.state.get("process") == "connect"
        user = (
            request.user if connecting else (sociallogin.user if sociallogin.is_existing else None)
        )
        if user is not None and user.is_authenticated:
            if connecting and user.email.lower() != identity.email:
                raise ImmediateHttpResponse(
                    refuse(
                        request,
                        f"You are logged in as {user.email}, but the campus says you are "
                        f"{identity.email}: log in to that account to join it.",
                        sign_in,
                    )
                )
            try:
                campus_sign_in_again(user=user, sign_in=sign_in, identity=identity)
            except DomainError as error:
                raise ImmediateHttpResponse(refuse(request, error.message, sign_in)) from None
            return
        if (
            identity.campus_id
            and PlayerProfile.objects.filter(
                institution=sign_in.institution, campus_id=identity.campus_id
            )
            .exclude(user__email__iexact=identity.email)
            .exists()
        ):
            raise ImmediateHttpResponse(
                refuse(
                    request,
                    "The campus ID the campus sent is already registered to another account "
                    "here. Ask the front desk.",
                    sign_in,
                )
            )

    def populate_user(self, request, sociallogin, data):
        user = super().populate_user(request, sociallogin, data)
        _, identity = self._identity(request, sociallogin)
        user.email = identity.email
        user.first_name = identity.first_name[:150]
        user.last_name = identity.last_name[:150]
        return user

    def save_user(self, request, sociallogin, form=None):
        from django.db import transaction

        sign_in, identity = self._identity(request, sociallogin)
        with transaction.atomic():
            user = super().save_user(request, sociallogin, form)
            campus_student_register(user=user, sign_in=sign_in, identity=identity)
        return user

    def on_authentication_error(
        self, request, provider, error=None, exception=None, extra_context=None
    ):
        """Every failure allauth or the SAML library finds (another audience, an expired,
        replayed, unsigned or wrongly signed assertion, another identity provider's response,
        a state that does not match) ends on the refusal page: the reason in words."""
        from allauth.socialaccount.providers.base.constants import AuthError

        if error == AuthError.CANCELLED:
            return  # allauth's own page: the sign-in was cancelled at the campus
        app = getattr(provider, "app", None)
        sign_in = (
            CampusSignIn.objects.select_related("institution").filter(social_app=app).first()
            if app is not None and app.pk
            else None
        )
        name = sign_in.institution.name if sign_in else "the campus"
        raise ImmediateHttpResponse(
            refuse(
                request,
                f"Signing in with {name} did not work: the answer from the campus's sign-in "
                "could not be trusted (it was meant for another site, had expired, had been "
                "used before, or was not signed by the campus). Nothing was changed. Try again "
                "from the start.",
                sign_in,
            )
        )
