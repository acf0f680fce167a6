from allauth.account.forms import SignupForm
from django import forms
from django.db import transaction

from .models import EquipmentItem, PlayerProfile, Season
from .selectors import institution_for_email
from .services import student_register


class CampusSignupForm(SignupForm):
    """allauth's signup with the student's name and campus ID, checked against the institution
    that the e-mail domain belongs to."""

    first_name = forms.CharField(
        max_length=150,
        label="First name",
        widget=forms.TextInput(attrs={"autocomplete": "given-name"}),
    )
    last_name = forms.CharField(
        max_length=150,
        label="Last name",
        widget=forms.TextInput(attrs={"autocomplete": "family-name"}),
    )
    campus_id = forms.CharField(
        max_length=40,
        label="Campus ID",
        help_text="The number on your campus card.",
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    field_order = ["first_name", "last_name", "email", "campus_id", "password1", "password2"]

    def clean(self):
        cleaned = super().clean()
        email = cleaned.get("email")
        campus_id = (cleaned.get("campus_id") or "").strip()
        self.institution = institution_for_email(email) if email else None
        if self.institution and campus_id:
            label = self.institution.campus_id_label
            if not self.institution.campus_id_matches(campus_id):
                self.add_error("campus_id", f"{label} must be {self.institution.campus_id_hint}.")
            elif PlayerProfile.objects.filter(
                institution=self.institution, campus_id=campus_id
            ).exists():
                self.add_error(
                    "campus_id",
                    f"This {label} is already registered. If it is yours, log in or reset your "
                    "password; if not, ask the front desk.",
                )
            cleaned["campus_id"] = campus_id
        return cleaned

    def save(self, request):
        with transaction.atomic():
            user = super().save(request)
            student_register(
                user=user, institution=self.institution, campus_id=self.cleaned_data["campus_id"]
            )
        return user


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
        from .selectors import available_items

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
