"""Campus sign-in (single sign-on): the site admin connects an institution to its identity
provider, and a student signing in with the campus account is registered, or has their
eligibility brought in line with what the campus says now (L10)."""

from allauth.socialaccount.models import SocialApp
from django.conf import settings as django_settings
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from onelogin.saml2.idp_metadata_parser import OneLogin_Saml2_IdPMetadataParser

from core.errors import DomainError, NotAllowed

from .. import roles
from ..campus_identity import GRANT, WITHDRAW, CampusIdentity, is_student, sign_in_decision
from ..errors import CampusIdTaken
from ..models import (
    CampusSignIn,
    Eligibility,
    EligibilitySource,
    EligibilityStatus,
    NoAffiliation,
    PlayerProfile,
    Protocol,
    Season,
    User,
)
from .eligibility import set_eligibility
from .people import student_register

OIDC_PROVIDER = "openid_connect"
SAML_PROVIDER = "saml"


def _saml_idp(sign_in: CampusSignIn) -> dict:
    """The identity provider as allauth's SAML provider reads it: by metadata URL (fetched and
    cached by allauth), or the pasted metadata read now."""
    if sign_in.idp_metadata_url:
        return {"entity_id": sign_in.idp_entity_id, "metadata_url": sign_in.idp_metadata_url}
    try:
        parsed = OneLogin_Saml2_IdPMetadataParser.parse(
            sign_in.idp_metadata_xml, entity_id=sign_in.idp_entity_id
        )
    except Exception as error:  # the parser raises whatever lxml or its own checks raise
        raise DomainError(f"The identity provider's metadata could not be read: {error}") from None
    idp = parsed.get("idp") or {}
    sso = (idp.get("singleSignOnService") or {}).get("url")
    cert = idp.get("x509cert") or next(
        iter((idp.get("x509certMulti") or {}).get("signing", [])), ""
    )
    if not sso or not cert:
        raise DomainError(
            "The identity provider's metadata names no sign-in address or signing certificate "
            f"for {sign_in.idp_entity_id}."
        )
    return {"entity_id": sign_in.idp_entity_id, "sso_url": sso, "x509cert": cert}


def sp_entity_id(slug: str) -> str:
    return django_settings.SITE_URL + reverse("saml_metadata", args=[slug])


def _app_settings(sign_in: CampusSignIn) -> dict:
    mapping = sign_in.mapping()
    if sign_in.protocol == Protocol.OIDC:
        return {"server_url": sign_in.issuer, "uid_field": mapping["uid"][0]}
    return {
        "idp": _saml_idp(sign_in),
        "attribute_mapping": {
            key: names
            for key, names in mapping.items()
            if key in ("uid", "email", "first_name", "last_name")
        },
        # Our entity ID is our metadata's address on SITE_URL, whatever Host a request names.
        "sp": {"entity_id": sp_entity_id(sign_in.institution.slug)},
        "advanced": {
            "want_assertion_signed": True,
            "reject_idp_initiated_sso": True,
            "strict": True,
        },
    }


def campus_sign_in_save(*, actor: User, sign_in: CampusSignIn) -> CampusSignIn:
    """Save an institution's campus sign-in and the allauth app behind it, in one transaction:
    an OpenID Connect app keyed by the institution's slug (its redirect URI names it), a SAML
    one whose organisation is the slug (its metadata and ACS URLs name it). Only site admins
    connect an institution to an identity provider."""
    if not roles.is_site_admin(actor):
        raise NotAllowed("Only site admins connect an institution to its identity provider.")
    if sign_in.protocol == Protocol.SAML:
        if not sign_in.idp_entity_id or not (sign_in.idp_metadata_url or sign_in.idp_metadata_xml):
            raise DomainError(
                "SAML needs the identity provider's entity ID and its metadata URL or XML."
            )
    elif not (sign_in.issuer and sign_in.client_id and sign_in.client_secret):
        raise DomainError("OpenID Connect needs the issuer, the client ID and the client secret.")
    settings = _app_settings(sign_in)
    slug = sign_in.institution.slug
    with transaction.atomic():
        app = sign_in.social_app or SocialApp()
        if sign_in.protocol == Protocol.OIDC:
            app.provider, app.provider_id = OIDC_PROVIDER, slug
            app.client_id, app.secret = sign_in.client_id, sign_in.client_secret
        else:
            app.provider, app.provider_id = SAML_PROVIDER, slug
            app.client_id, app.secret = slug, ""
        app.name = sign_in.label
        app.settings = settings
        app.save()
        sign_in.social_app = app
        sign_in.save()
    return sign_in


def _current_seasons(institution):
    return list(Season.objects.filter(institution=institution, ends_on__gte=institution.today()))


def _apply_campus_word(
    *, profile: PlayerProfile, identity: CampusIdentity, sign_in: CampusSignIn
) -> None:
    """Each season current at sign-in, as the campus's word now decides (L10)."""
    student = is_student(
        identity, students_without_affiliation=sign_in.no_affiliation == NoAffiliation.STUDENTS
    )
    seasons = _current_seasons(profile.institution)
    standing = {
        e.season_id: e for e in Eligibility.objects.filter(profile=profile, season__in=seasons)
    }
    today = timezone.now().astimezone(profile.institution.tz).date()
    for season in seasons:
        current = standing.get(season.pk)
        decision = sign_in_decision(
            student=student,
            campus_word_enough=sign_in.campus_word_enough,
            current_status=current.status if current else EligibilityStatus.PENDING,
            current_source=current.source if current else EligibilitySource.NONE,
        )
        if decision == GRANT:
            set_eligibility(
                profile=profile,
                season=season,
                status=EligibilityStatus.ELIGIBLE,
                source=EligibilitySource.CAMPUS,
                reason=f"{profile.institution}'s sign-in says student",
                actor=None,
                overrule_director=False,
            )
        elif decision == WITHDRAW:
            said = ", ".join(identity.affiliations) or "no affiliation"
            set_eligibility(
                profile=profile,
                season=season,
                status=EligibilityStatus.PENDING,
                source=EligibilitySource.CAMPUS,
                reason=f"At sign-in on {today:%Y-%m-%d} {profile.institution}'s sign-in no "
                f"longer says student ({said}): new entries wait for the roster or an ID check",
                actor=None,
                overrule_director=False,
            )


def campus_student_register(
    *, user: User, sign_in: CampusSignIn, identity: CampusIdentity
) -> PlayerProfile:
    """A student new here, signed up by the campus's sign-in: their profile with the campus ID
    the campus sent (none where the institution does not require one), the student role,
    eligibility from the roster as at any signup, then from the campus's word."""
    institution = sign_in.institution
    with transaction.atomic():
        if identity.campus_id:
            profile = student_register(
                user=user, institution=institution, campus_id=identity.campus_id
            )
        else:
            profile = PlayerProfile.objects.create(user=user, institution=institution)
            user.groups.add(Group.objects.get_or_create(name=roles.STUDENTS)[0])
        _apply_campus_word(profile=profile, identity=identity, sign_in=sign_in)
    return profile


def campus_sign_in_again(
    *, user: User, sign_in: CampusSignIn, identity: CampusIdentity
) -> PlayerProfile | None:
    """A later sign-in (or a password account joined to the campus identity): the campus ID
    is filled in if the profile had none, and eligibility follows the campus's word now. Only
    a student's standing moves; staff and others keep theirs."""
    with transaction.atomic():
        profile = PlayerProfile.objects.select_for_update().filter(user=user).first()
        if profile is None or profile.institution_id != sign_in.institution_id:
            return profile
        if not roles.in_group(user, roles.STUDENTS):
            return profile
        if identity.campus_id and not profile.campus_id:
            profile.campus_id = identity.campus_id
            try:
                with transaction.atomic():
                    profile.save(update_fields=["campus_id"])
            except IntegrityError:
                raise CampusIdTaken() from None
        _apply_campus_word(profile=profile, identity=identity, sign_in=sign_in)
    return profile
