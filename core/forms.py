"""Form fields every app may use, and the model forms' way of showing every error."""

from functools import cache

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, FieldDoesNotExist, ValidationError
from django.utils.text import capfirst

from .errors import BadValue
from .values import BIGINT_MAX, clean_text, number_or_none


def no_control_characters(value: str) -> None:
    """Refuse NUL, the other control characters (tab and line breaks aside) and lone
    surrogates: what PostgreSQL cannot store or a person does not type (core/values.py)."""
    try:
        clean_text(value, what="This field", max_length=len(value))
    except BadValue as error:
        raise ValidationError(error.message, code="control_character") from None


# What a slug is, said to whoever types one ("Enter a valid “slug”…" said nothing to a director).
SLUG_INVALID = (
    "This is part of a web address: use lower-case letters, digits and hyphens only, for example "
    "spring-league (no spaces, accents or other signs)."
)


class WebAddressField(forms.SlugField):
    """A slug typed in a form, refused in words when it is not one."""

    default_error_messages = {"invalid": SLUG_INVALID}


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


class EveryErrorShown:
    """A model form that shows an error on a field it does not show (a model's clean() checks
    a field the admin shows read-only, say) as an error of the whole form, naming the field.
    Django's raises ValueError ("has no field named …") and the page answered 500. Put it
    before the form class in the bases."""

    def add_error(self, field, error):
        # The model's errors come here as one error of fields and their messages (Django's
        # _update_errors); an error the form's own code adds to a field it lacks stays a bug.
        if field is None and isinstance(error, ValidationError) and hasattr(error, "error_dict"):
            shown: dict[str, list[ValidationError]] = {}
            for name, errors in error.error_dict.items():
                if name == NON_FIELD_ERRORS or name in self.fields:
                    shown.setdefault(name, []).extend(errors)
                else:
                    shown.setdefault(NON_FIELD_ERRORS, []).extend(self._named(name, errors))
            error = ValidationError(shown)
        super().add_error(field, error)

    def _named(self, name: str, errors: list[ValidationError]) -> list[ValidationError]:
        """Each message led by the field's name as the model words it ("Email domains: …")."""
        model = getattr(getattr(self, "_meta", None), "model", None)
        try:
            label = capfirst(model._meta.get_field(name).verbose_name) if model else name
        except FieldDoesNotExist:
            label = name
        return [
            ValidationError(f"{label}: {message}", code=each.code)
            for each in errors
            for message in ValidationError(each).messages
        ]


@cache
def every_error_shown(form_class: type) -> type:
    """`form_class` with EveryErrorShown, made once per class."""
    if issubclass(form_class, EveryErrorShown):
        return form_class
    return type(
        form_class.__name__,
        (EveryErrorShown, form_class),
        {"__module__": form_class.__module__, "__qualname__": form_class.__qualname__},
    )
