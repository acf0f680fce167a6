"""Rating bands for an event's categories (R4): the institution's rated players split into
parts of about equal size, the boundaries rounded to 50 points, for the set-up form to suggest
("Division A: 1650 and up"). Three queries whatever the number of players."""

from .models import PlayerRating

ROUNDED_TO = 50


def rating_bands(institution, parts: int = 3) -> list[tuple[int | None, int | None]]:
    """[(lowest, highest)] from the top band down: the top band has no highest, the bottom no
    lowest; a boundary is the rating where a band starts. Fewer bands where two boundaries round
    to the same number; none with fewer rated players than three a band."""
    rated = PlayerRating.objects.filter(player__institution=institution, games__gt=0)
    count = rated.count()
    if count < 3 * parts:
        return []
    ordered = rated.order_by("-rating").values_list("rating", flat=True)
    starts = sorted(
        {
            round(ordered[count * share // parts - 1] / ROUNDED_TO) * ROUNDED_TO
            for share in range(1, parts)
        },
        reverse=True,
    )
    bands, above = [], None
    for start in starts:
        bands.append((start, above))
        above = start - 1
    bands.append((None, above))
    return bands
