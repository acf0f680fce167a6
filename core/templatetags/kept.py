"""``{{ form|kept_form }}``: an unbound form's paragraphs from the kept fragments;
``{{ form|kept_form:"template.html" }}``: rendered with that template, given ``form``."""

from django import template

from core.fragments import form_html

register = template.Library()


@register.filter
def kept_form(form, template_name: str = "") -> str:
    return form_html(form, template_name)
