"""Club nights (E4) as ``league.formats`` knows them: their traits, their page, their settings
file, how a night is seated from the command line, their part of the demo."""

from django.db import transaction

from league import formats
from league.models import Entry, LeagueFormat

from . import demo, files, members, services, setup_form, views


def seat_for_command(*, league, round, seed: int, repair: bool, all_entrants: bool):
    """`pair_round` for a club night: with `all_entrants` every active member is checked in
    first, in the seating's transaction, so a refused seating checks nobody in. Returns the
    tables (player ids in seat order) and no byes: a club night has none."""
    with transaction.atomic():
        if all_entrants:
            for entry in Entry.objects.filter(
                league=league, withdrawn_at__isnull=True
            ).select_related("player"):
                services.check_in(actor=None, as_system=True, round=round, player=entry.player)
        tables = services.seat_night(
            actor=None, as_system=True, round=round, seed=seed, repair=repair
        )
    return (
        [
            (number, [seat.player_id for seat in match.seats.order_by("order")])
            for number, match in enumerate(tables, start=1)
        ],
        [],
    )


def import_for_command(*, league, data: bytes, strict: bool):
    return members.members_import(
        actor=None, league=league, data=data, strict=strict, as_system=True
    )


CLUB = formats.Format(
    value=LeagueFormat.CLUB,
    round_name="night",
    paired="seated",
    scorekeeper_reports=True,
    director_closes=True,
    open_entry=True,
    ranks_per_game=True,
    numbers_entrants=True,
    home=views.club_home,
    file_keys=files.CLUB_KEYS,
    file_required=files.CLUB_REQUIRED,
    settings_file_save=files.save_file,
    settings_file_export=files.export_file,
    setup_form=setup_form.ClubSetupForm,
    setup_name="a club",
    describe=lambda league: f"club, {league.rounds.count()} nights",
    pair_round=seat_for_command,
    import_entrants=import_for_command,
    entrants_max_bytes=members.MAX_BYTES,
    demo=lambda institution, season, director, desk, rng, password: demo.make_club(
        institution, season, director, desk, rng
    ),
)
