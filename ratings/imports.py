"""Importing known ratings (R5): a director's file of ratings (a club member's NASPA rating,
say) becomes where those players' ratings start. `manage.py import_ratings` calls it and then
rates, so the list shows the new ratings at once."""

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Min
from django.db.models.functions import Lower
from django.utils import timezone

from accounts import roles
from accounts.errors import RosterFileError
from accounts.models import Institution, PlayerProfile
from accounts.roster import decode_roster
from accounts.services import RosterRejected
from core.errors import NotAllowed

from . import glicko
from .models import ImportedRating, PlayerRating, RatingChange, RatingPeriod
from .rating_file import MAX_BYTES, parse_ratings


@dataclass
class RatingImport:
    imported: int = 0  # players whose starting rating is new or changed
    unchanged: int = 0
    refused: list[tuple[int, str]] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"{self.imported} ratings imported, {self.unchanged} unchanged, "
            f"{len(self.refused)} lines refused"
        )


def ratings_import(
    *,
    actor,
    institution: Institution,
    data: bytes,
    encoding: str = "utf-8",
    strict: bool = False,
    now=None,
) -> RatingImport:
    """Keep each line's rating as its player's starting rating. A line is refused, by number,
    when the file cannot say who it means, the institution has no such player, or an earlier
    line already named that player (by the same key or the other one); with `strict`
    nothing is imported if any line is refused. The same file again changes nothing. The
    players' rated periods from their first on are undone, for the next rating run to rate
    again from the new start. `actor` None means the command line."""
    if actor is not None and not roles.is_director_of(actor, institution):
        raise NotAllowed("Only the institution's director can import its ratings.")
    if len(data) > MAX_BYTES:
        raise RosterFileError(f"The file is larger than {MAX_BYTES // 1024 // 1024} MB.")
    parsed = parse_ratings(decode_roster(data, encoding))
    result = RatingImport(refused=list(parsed.refused))
    with transaction.atomic():
        # The rating run locks the institution's row too: an import never lands mid-run.
        Institution.objects.select_for_update().filter(pk=institution.pk).first()
        players = _players_of(institution, parsed.rows)
        found, line_of_player = [], {}
        for row in parsed.rows:
            player = players.get(row.campus_id or row.email)
            who = f"campus ID {row.campus_id}" if row.campus_id else f"e-mail {row.email}"
            if player is None:
                result.refused.append((row.line, f"no player at {institution.name} has {who}"))
            elif player in line_of_player:
                # A campus ID on one line and the same player's e-mail on another: one person
                # named twice. The first line stands, as for the same key twice.
                result.refused.append(
                    (row.line, f"{who} is the player already on line {line_of_player[player]}")
                )
            else:
                line_of_player[player] = row.line
                found.append((row, player))
        result.refused.sort()
        if strict and result.refused:
            raise RosterRejected(result.refused)
        before = {
            imported.player_id: (imported.rating, imported.deviation)
            for imported in ImportedRating.objects.filter(player_id__in=[p for _, p in found])
        }
        changed = [
            (row, player)
            for row, player in found
            if before.get(player) != (row.rating, row.deviation)
        ]
        result.unchanged = len(found) - len(changed)
        result.imported = len(changed)
        if changed:
            _keep(institution, changed, actor, now or timezone.now())
    return result


def _players_of(institution, rows) -> dict[str, int]:
    """Each row's player id by its campus ID or lower-cased e-mail, in two queries."""
    profiles = PlayerProfile.objects.filter(institution=institution, erased_at__isnull=True)
    by_id = dict(
        profiles.filter(campus_id__in=[row.campus_id for row in rows if row.campus_id]).values_list(
            "campus_id", "pk"
        )
    )
    emails = [row.email for row in rows if row.email]
    by_email = dict(
        profiles.annotate(address=Lower("user__email"))
        .filter(address__in=emails)
        .values_list("address", "pk")
    )
    by_email.update(
        profiles.filter(user__isnull=True)
        .annotate(address=Lower("email"))
        .filter(address__in=emails)
        .values_list("address", "pk")
    )
    return {**by_email, **by_id}


def _keep(institution, changed, actor, now) -> None:
    players = [player for _, player in changed]
    played = RatingChange.objects.filter(player_id__in=players)
    unplayed = set(players) - set(played.values_list("player_id", flat=True))
    ImportedRating.objects.bulk_create(
        [
            ImportedRating(
                player_id=player,
                rating=row.rating,
                deviation=row.deviation,
                imported_at=now,
                imported_by=actor,
            )
            for row, player in changed
        ],
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["rating", "deviation", "imported_at", "imported_by"],
    )
    first = played.aggregate(first=Min("period__ends_on"))["first"]
    if first is not None:
        # Undone from the first period any of them played: the next run rates from there.
        RatingPeriod.objects.filter(institution=institution, ends_on__gte=first).delete()
    # Until they play, their rating is the imported one.
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                player_id=player,
                rating=row.rating,
                deviation=row.deviation,
                volatility=glicko.START_VOLATILITY,
                games=0,
                last_played=None,
            )
            for row, player in changed
            if player in unplayed
        ],
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["rating", "deviation", "volatility", "games", "last_played"],
    )
