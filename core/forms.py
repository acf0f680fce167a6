"""Form fields every app may use."""

from django import forms
from django.core.exceptions import ValidationError

from .errors import BadValue
from .values import BIGINT_MAX, clean_text, number_or_none


def no_control_characters(value: str) -> None:
    """Refuse NUL, the other control characters (tab and line breaks aside) and lone
    surrogates: what PostgreSQL cannot store or a person does not type (core/values.py)."""
    try:
        clean_text(value, what="This field", max_length=len(value))
    except BadValue as error:
        raise ValidationError(error.message, code="control_character") from None


class TextField(forms.CharField):
    """A CharField that refuses control characters as well as NUL (Django refuses only NUL)."""

    default_validators = [no_control_characters]


class WholeNumberField(forms.IntegerField):
    """An IntegerField that reads ASCII digits only (core/values.py): Django's int() would also
    read "١٢" as 12, and a number of thousands of digits is refused before int() sees it. Its
    range (min_value, max_value) is checked as IntegerField checks it, with its messages."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        number = number_or_none(str(value), low=-BIGINT_MAX, high=BIGINT_MAX)
        if number is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return number
