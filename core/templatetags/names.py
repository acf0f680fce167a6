"""``{{ player|shown:names }}``: a player profile's name under the page's privacy style
(``league.names``); an empty style (staff pages) shows the name as given. A club's or an
event's page gives a ``league.names.NamesAt``, which knows each entrant's player number."""

from django import template

register = template.Library()


@register.filter
def shown(player, style: str = "") -> str:
    if player is None:
        return ""
    if hasattr(style, "of"):  # league.names.NamesAt: core knows no league
        return style.of(player)
    return player.name_in(style) if style else player.name
