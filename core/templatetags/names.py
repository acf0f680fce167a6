"""``{{ player|shown:names }}``: a player profile's name under the page's privacy style
(``league.names``); an empty style (staff pages) shows the name as given."""

from django import template

register = template.Library()


@register.filter
def shown(player, style: str = "") -> str:
    if player is None:
        return ""
    return player.name_in(style) if style else player.name
