"""An institution's single sign-on: the campus identity provider its students sign in with
(SAML 2.0 or OpenID Connect), which of its attributes say what, and how far the campus's word
goes for eligibility (L10). Each row drives one django-allauth `SocialApp`
(`accounts.services.campus_sign_in_save` keeps the two in step)."""

from django.db import models

from .institutions import Institution

# Attribute names read by default, each with the other names campuses send it under: SAML
# identity providers name attributes by OID (Shibboleth) or by their LDAP names.
SAML_DEFAULTS = {
    "uid_attribute": "urn:oid:1.3.6.1.4.1.5923.1.1.1.6 eduPersonPrincipalName",
    "email_attribute": "urn:oid:0.9.2342.19200300.100.1.3 mail",
    "affiliation_attribute": (
        "urn:oid:1.3.6.1.4.1.5923.1.1.1.1 eduPersonAffiliation "
        "urn:oid:1.3.6.1.4.1.5923.1.1.1.9 eduPersonScopedAffiliation"
    ),
    "campus_id_attribute": "urn:oid:2.16.840.1.113730.3.1.3 employeeNumber",
    "first_name_attribute": "urn:oid:2.5.4.42 givenName",
    "last_name_attribute": "urn:oid:2.5.4.4 sn surname",
}
OIDC_DEFAULTS = {
    "uid_attribute": "sub",
    "email_attribute": "email",
    "affiliation_attribute": "affiliation eduperson_affiliation",
    "campus_id_attribute": "campus_id employee_id",
    "first_name_attribute": "given_name",
    "last_name_attribute": "family_name",
}


class Protocol(models.TextChoices):
    SAML = "saml", "SAML 2.0 (Shibboleth, InCommon, eduGAIN)"
    OIDC = "oidc", "OpenID Connect (Entra ID, Google Workspace, Okta)"


class NoAffiliation(models.TextChoices):
    STUDENTS = "students", "Every account at our e-mail domains is a student"
    NOBODY = "nobody", "Signing in alone makes nobody eligible"


class CampusSignIn(models.Model):
    institution = models.OneToOneField(
        Institution, on_delete=models.CASCADE, related_name="campus_sign_in"
    )
    enabled = models.BooleanField(
        default=True, help_text="Show the campus sign-in button on the log-in and sign-up pages."
    )
    protocol = models.CharField(max_length=4, choices=Protocol.choices, default=Protocol.SAML)
    button_name = models.CharField(
        max_length=100,
        blank=True,
        help_text='The button says "Sign in with" this; the institution\'s name when empty.',
    )
    # SAML
    idp_entity_id = models.CharField(
        "identity provider's entity ID",
        max_length=500,
        blank=True,
        help_text="SAML: the entity ID in the identity provider's metadata.",
    )
    idp_metadata_url = models.URLField(
        "identity provider's metadata URL",
        max_length=500,
        blank=True,
        help_text="SAML: where the identity provider publishes its metadata (or paste it below).",
    )
    idp_metadata_xml = models.TextField(
        "identity provider's metadata",
        blank=True,
        help_text="SAML: the identity provider's metadata XML, when it has no URL.",
    )
    # OpenID Connect
    issuer = models.URLField(
        max_length=500,
        blank=True,
        help_text="OpenID Connect: the issuer, e.g. https://login.microsoftonline.com/<tenant>/v2.0",
    )
    client_id = models.CharField("client ID", max_length=300, blank=True)
    client_secret = models.CharField(
        max_length=500,
        blank=True,
        help_text="OpenID Connect: kept, never shown again; leave empty to keep the saved one.",
    )
    # Which attributes (SAML) or claims (OpenID Connect) say what: names separated by spaces,
    # the first one sent wins.
    uid_attribute = models.CharField(
        "stable identifier", max_length=300, blank=True, help_text="Never reassigned."
    )
    email_attribute = models.CharField("e-mail address", max_length=300, blank=True)
    affiliation_attribute = models.CharField(
        "affiliation",
        max_length=300,
        blank=True,
        help_text='Says "student" (or student@campus) for students.',
    )
    campus_id_attribute = models.CharField("campus ID", max_length=300, blank=True)
    first_name_attribute = models.CharField("first name", max_length=300, blank=True)
    last_name_attribute = models.CharField("last name", max_length=300, blank=True)
    no_affiliation = models.CharField(
        "when no affiliation is sent",
        max_length=10,
        choices=NoAffiliation.choices,
        default=NoAffiliation.NOBODY,
    )
    campus_word_enough = models.BooleanField(
        "the campus's word is enough",
        default=False,
        help_text="A student the campus calls a student is eligible at once for the seasons "
        "current when they sign in; otherwise the registrar's roster or a picture-ID check "
        "decides, as for everyone.",
    )
    campus_id_required = models.BooleanField(
        "campus ID required",
        default=True,
        help_text="Refuse a sign-in that carries no campus ID.",
    )
    require_for_students = models.BooleanField(
        "students must use it",
        default=False,
        help_text="Password sign-up is refused at the institution's e-mail domains; guests, "
        "volunteers and staff keep their passwords.",
    )

    social_app = models.OneToOneField(
        "socialaccount.SocialApp",
        null=True,
        blank=True,
        editable=False,
        on_delete=models.SET_NULL,
        related_name="campus_sign_in",
        help_text="The sign-in app this row drives (kept in step on every save).",
    )

    class Meta:
        verbose_name = "campus sign-in"

    def __str__(self):
        return f"Campus sign-in of {self.institution}"

    @property
    def label(self) -> str:
        return self.button_name or self.institution.name

    def mapping(self) -> dict[str, list[str]]:
        """Each field's attribute names, the defaults standing in for an empty one."""
        defaults = SAML_DEFAULTS if self.protocol == Protocol.SAML else OIDC_DEFAULTS
        return {
            key.removesuffix("_attribute"): (getattr(self, key) or defaults[key]).split()
            for key in defaults
        }

    @property
    def provider_login_url(self) -> str:
        """Where the button posts: allauth's SAML or OpenID Connect log-in for this institution."""
        from django.urls import reverse

        slug = self.institution.slug
        if self.protocol == Protocol.SAML:
            return reverse("saml_login", args=[slug])
        return reverse("openid_connect_login", kwargs={"provider_id": slug})

    @property
    def ready(self) -> bool:
        """Connected: the button goes to the campus; otherwise to a page saying it is not."""
        return self.enabled and self.configured and self.social_app_id is not None

    @property
    def configured(self) -> bool:
        if self.protocol == Protocol.SAML:
            return bool(self.idp_entity_id and (self.idp_metadata_url or self.idp_metadata_xml))
        return bool(self.issuer and self.client_id and self.client_secret)
