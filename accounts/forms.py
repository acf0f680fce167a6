from allauth.account.forms import AddEmailForm, SignupForm
from django import forms
from django.db import transaction
from django.urls import reverse
from django.utils.html import format_html

from core.errors import DomainError
from core.zones import zone_choices

from .campus_ids import normalize_campus_id, pattern_in_words
from .errors import CampusIdTaken
from .models import EquipmentItem, Institution, PlayerProfile, Season
from .selectors import available_items, institution_for_email
from .services import email_change_request, email_refusal, student_register
from .services.people import NAME_MAX


def _name_fields() -> tuple[forms.CharField, forms.CharField]:
    """First and last name as the signup and the profile take them. The browser's maxlength cut
    a pasted 300-character name to 150 without a word; the server's check says what is wrong
    instead, so the widgets carry none (the forms drop it)."""
    return (
        forms.CharField(
            max_length=NAME_MAX,
            label="First name",
            widget=forms.TextInput(attrs={"autocomplete": "given-name"}),
        ),
        forms.CharField(
            max_length=NAME_MAX,
            label="Last name",
            widget=forms.TextInput(attrs={"autocomplete": "family-name"}),
        ),
    )


def _no_maxlength(form: forms.Form) -> None:
    for name in ("first_name", "last_name"):
        form.fields[name].widget.attrs.pop("maxlength", None)


class CampusSignupForm(SignupForm):
    """allauth's signup with the student's name and campus ID, checked against the institution
    that the e-mail domain belongs to."""

    first_name, last_name = _name_fields()
    campus_id = forms.CharField(
        max_length=40,
        label="Campus ID",
        help_text="The number on your campus card.",
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    field_order = ["first_name", "last_name", "email", "campus_id", "password1", "password2"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _no_maxlength(self)

    def clean(self):
        cleaned = super().clean()
        email = cleaned.get("email")
        raw = cleaned.get("campus_id") or ""
        self.institution = institution_for_email(email) if email else None
        sign_in = getattr(self.institution, "campus_sign_in", None) if self.institution else None
        if sign_in is not None and sign_in.enabled and sign_in.require_for_students:
            url = reverse("campus_sign_in", args=[self.institution.slug])
            self.add_error(
                "email",
                format_html(
                    '{} students sign up with their campus account: <a href="{}">sign in with '
                    "{}</a>.",
                    self.institution.name,
                    url,
                    sign_in.label,
                ),
            )
            return cleaned
        if self.institution and raw:
            try:
                campus_id = self.institution.clean_campus_id(raw)
            except DomainError as error:
                self.add_error("campus_id", error.message)
                return cleaned
            if PlayerProfile.objects.filter(
                institution=self.institution, campus_id=campus_id
            ).exists():
                self.add_error("campus_id", CampusIdTaken().message)
            cleaned["campus_id"] = campus_id
        return cleaned

    def save(self, request):
        with transaction.atomic():
            user = super().save(request)
            student_register(
                user=user, institution=self.institution, campus_id=self.cleaned_data["campus_id"]
            )
        return user


class NameForm(forms.Form):
    """One's own name on the profile, with the signup's limits."""

    first_name, last_name = _name_fields()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _no_maxlength(self)


class CampusEmailChangeForm(AddEmailForm):
    """allauth's e-mail change (/accounts/email/, ACCOUNT_CHANGE_EMAIL): the new address must be
    at the person's own institution, not merely at some institution (the signup's rule)."""

    email = forms.EmailField(
        label="New e-mail address",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    def clean_email(self):
        email = super().clean_email()
        refusal = email_refusal(user=self.user, email=email)
        if refusal:
            raise forms.ValidationError(refusal)
        return email

    def save(self, request):
        return email_change_request(
            actor=self.user, user=self.user, email=self.cleaned_data["email"], request=request
        )


class CampusIdLookupForm(forms.Form):
    campus_id = forms.CharField(
        max_length=40,
        label="Campus ID",
        widget=forms.TextInput(
            attrs={
                "autofocus": True,
                "autocomplete": "off",
                "inputmode": "numeric",
                "placeholder": "Type or scan",
            }
        ),
    )


class IdCheckForm(forms.Form):
    season = forms.ModelChoiceField(queryset=Season.objects.none(), widget=forms.HiddenInput)
    note = forms.CharField(
        max_length=200,
        required=False,
        label="Note (optional)",
        help_text="For example: card expires 05/2027.",
    )

    def __init__(self, *args, institution=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = Season.objects.filter(institution=institution)


class LendForm(forms.Form):
    item = forms.ModelChoiceField(
        queryset=EquipmentItem.objects.none(), label="Lend", empty_label="Choose an item"
    )

    def __init__(self, *args, institution=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["item"].queryset = available_items(institution)


class PreferencesForm(forms.ModelForm):
    class Meta:
        model = PlayerProfile
        fields = ["email_match_activity", "email_reminders", "email_digest"]
        labels = {
            "email_match_activity": "E-mail me when my opponent proposes, accepts, reports, confirms or disputes",
            "email_reminders": "E-mail me a reminder 48 hours before a match's deadline",
            "email_digest": "Send me the morning digest (directors and front-desk staff)",
        }

    def __init__(self, *args, staff=False, **kwargs):
        super().__init__(*args, **kwargs)
        if not staff:
            del self.fields["email_digest"]
        for field in self.fields.values():
            field.help_text = ""


class CampusIdAdminForm(forms.ModelForm):
    """The admin's form for a row holding a campus ID (a profile, a roster line): the ID is
    tidied and checked against the institution's pattern as at signup and in the roster import
    (L10). A blank ID (staff) is left blank; the model says whether one is required."""

    def institution_of(self, cleaned) -> Institution | None:
        if cleaned.get("institution"):
            return cleaned["institution"]
        season = cleaned.get("season")
        return season.institution if season else None

    def clean(self):
        cleaned = super().clean()
        if "campus_id" not in cleaned:
            return cleaned
        cleaned["campus_id"] = normalize_campus_id(cleaned["campus_id"])
        institution = self.institution_of(cleaned)
        if cleaned["campus_id"] and institution:
            try:
                cleaned["campus_id"] = institution.clean_campus_id(cleaned["campus_id"])
            except DomainError as error:
                self.add_error("campus_id", error.message)
        return cleaned


PATTERN_HELP = (
    "How the whole campus ID must look, written as a pattern (a regular expression): \\d{7} "
    "is seven digits, [A-Z]\\d{6} a capital letter and six digits, \\d{8,9} eight or nine digits."
)


class InstitutionAdminForm(forms.ModelForm):
    """The admin's form for an institution: its time zone picked from every zone there is (it
    was typed), its campus-ID pattern explained in words, and what the pattern it holds means."""

    timezone = forms.ChoiceField(
        label="Time zone",
        help_text="Every time and deadline is said and read in it: players' proposed times, "
        "rounds' deadlines, the nightly's 02:00.",
    )

    class Meta:
        model = Institution
        fields = [
            "name",
            "slug",
            "email_domains",
            "campus_id_pattern",
            "campus_id_hint",
            "timezone",
            "default_venue",
            "front_desk_location",
            "loan_hours",
            "public_names",
            "guest_data_days",
            "personal_data_years",
        ]
        labels = {"campus_id_pattern": "Campus ID pattern", "campus_id_hint": "Campus ID in words"}
        help_texts = {
            "campus_id_hint": 'How the ID looks, in words: students read "Campus ID must be '
            '…" with it, as in "seven digits".'
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = list(zone_choices())
        stored = self.instance.timezone if self.instance.pk else ""
        if stored and stored not in dict(choices):
            choices.insert(0, (stored, stored))  # kept as it is, though no longer listed
        self.fields["timezone"].choices = choices
        if "campus_id_pattern" in self.fields:
            help_text = PATTERN_HELP
            words = pattern_in_words(self.instance.campus_id_pattern or "")
            if words:
                help_text += f" The pattern now: {words}."
            self.fields["campus_id_pattern"].help_text = help_text
