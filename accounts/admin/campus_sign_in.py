"""The site admin connects an institution to its campus identity provider: SAML or OpenID
Connect, which attributes say what, and how far the campus's word goes. Saved through the
service, which keeps allauth's app in step; the client secret is never shown again."""

from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from core.errors import DomainError

from ..models import CampusSignIn, Protocol
from ..services.campus_sign_in import campus_sign_in_save


class CampusSignInForm(forms.ModelForm):
    idp_metadata_url = forms.URLField(
        label="Identity provider's metadata URL",
        required=False,
        assume_scheme="https",
        help_text="SAML: where the identity provider publishes its metadata (or paste it below).",
    )
    issuer = forms.URLField(
        required=False,
        assume_scheme="https",
        help_text="OpenID Connect: the issuer, e.g. https://login.microsoftonline.com/<tenant>/v2.0",
    )
    client_secret = forms.CharField(
        required=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
        help_text="OpenID Connect: kept, never shown again; leave empty to keep the saved one.",
    )

    class Meta:
        model = CampusSignIn
        fields = [
            "institution",
            "enabled",
            "protocol",
            "button_name",
            "idp_entity_id",
            "idp_metadata_url",
            "idp_metadata_xml",
            "issuer",
            "client_id",
            "client_secret",
            "uid_attribute",
            "email_attribute",
            "affiliation_attribute",
            "campus_id_attribute",
            "first_name_attribute",
            "last_name_attribute",
            "no_affiliation",
            "campus_word_enough",
            "campus_id_required",
            "require_for_students",
        ]

    def clean_client_secret(self):
        secret = self.cleaned_data.get("client_secret") or ""
        return secret or (self.instance.client_secret if self.instance.pk else "")

    def clean(self):
        cleaned = super().clean()
        protocol = cleaned.get("protocol")
        if protocol == Protocol.SAML:
            if not cleaned.get("idp_entity_id"):
                self.add_error("idp_entity_id", "SAML needs the identity provider's entity ID.")
            if not (cleaned.get("idp_metadata_url") or cleaned.get("idp_metadata_xml")):
                self.add_error(
                    "idp_metadata_url", "Give the identity provider's metadata URL or its XML."
                )
        elif protocol == Protocol.OIDC:
            for field in ("issuer", "client_id", "client_secret"):
                if not cleaned.get(field):
                    self.add_error(field, "OpenID Connect needs this.")
        return cleaned


@admin.register(CampusSignIn)
class CampusSignInAdmin(admin.ModelAdmin):
    form = CampusSignInForm
    list_display = ["institution", "protocol", "enabled", "campus_word_enough"]
    readonly_fields = ["what_the_campus_registers"]
    fieldsets = (
        (None, {"fields": ["institution", "enabled", "protocol", "button_name"]}),
        ("SAML 2.0", {"fields": ["idp_entity_id", "idp_metadata_url", "idp_metadata_xml"]}),
        ("OpenID Connect", {"fields": ["issuer", "client_id", "client_secret"]}),
        (
            "Which attributes say what (names separated by spaces; empty: the usual names)",
            {
                "fields": [
                    "uid_attribute",
                    "email_attribute",
                    "affiliation_attribute",
                    "campus_id_attribute",
                    "first_name_attribute",
                    "last_name_attribute",
                ]
            },
        ),
        (
            "Eligibility",
            {
                "fields": [
                    "no_affiliation",
                    "campus_word_enough",
                    "campus_id_required",
                    "require_for_students",
                ]
            },
        ),
        ("What the campus registers", {"fields": ["what_the_campus_registers"]}),
    )

    def has_module_permission(self, request):
        return request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser

    has_add_permission = has_change_permission = has_delete_permission = has_view_permission

    @admin.display(description="Give the campus")
    def what_the_campus_registers(self, obj):
        if obj is None or not obj.pk:
            return "Saved first, then shown here."
        slug = obj.institution.slug
        if obj.protocol == Protocol.SAML:
            return format_html(
                "Our metadata: {}<br>Assertion consumer service: {}",
                self._absolute(reverse("saml_metadata", args=[slug])),
                self._absolute(reverse("saml_acs", args=[slug])),
            )
        return format_html(
            "Redirect URI: {}",
            self._absolute(reverse("openid_connect_callback", kwargs={"provider_id": slug})),
        )

    def _absolute(self, path):
        from django.conf import settings

        return settings.SITE_URL + path

    def save_model(self, request, obj, form, change):
        try:
            campus_sign_in_save(actor=request.user, sign_in=obj)
        except DomainError as error:
            # The metadata could not be read: the row is kept, the admin told why.
            obj.save()
            self.message_user(request, error.message, level="error")
