from django import template

from events.money import money as format_money

register = template.Library()


@register.filter
def money(cents) -> str:
    """Whole cents as dollars and cents: 1250 → "$12.50" (E5's assists)."""
    return format_money(cents or 0)
