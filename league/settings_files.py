"""The settings file of a format's league (the Public contract's `create_event`, and the
director's upload at /director/events/new/): what every format's file shares. Each format reads
and writes its own keys (``clubs.files``, ``events.files``) and registers them with
``league.formats``; this module checks the file's shape (``file_schema``), finds the format, and
holds the steps every format's saver takes (the director's right, the league locked, only what
differs saved)."""

from accounts import roles
from core.errors import NotAllowed

from . import formats
from .file_schema import LeagueFileError, check_league_file
from .models import League

__all__ = ["LeagueFileError", "LeagueSlugTaken"]  # raised by every reader of a settings file


class LeagueSlugTaken(LeagueFileError):
    """The campus has a league of the file's slug and the file was not sent to change it: each
    way in says how to change it in its own words (a command's flag, the page's tick box)."""


def league_file_save(
    *, actor, season, data: dict, update: bool = False, as_system: bool = False
) -> tuple[League, bool]:
    """Save a settings file's league, whatever its format (the upload's and create_event's one
    way in): checked first, then read and saved by its format. Returns the league and whether
    anything changed."""
    check_league_file(data)
    save = formats.of(data["format"]).settings_file_save
    if save is None:
        raise LeagueFileError(f'format: "{data["format"]}" has no settings file.')
    return save(actor=actor, season=season, data=data, update=update, as_system=as_system)


def league_file_export(league: League, *, slug: str | None = None, day=None) -> dict:
    """The league's file for next year: renamed to `slug`, its dates moved to start on `day`."""
    export = formats.of(league.format).settings_file_export
    if export is None:
        raise LeagueFileError(f"{league.slug} is not a club or an event.")
    return export(league, slug=slug, day=day)


def choice(data: dict, key: str, default):
    """A key's value (checked by the schema), or its default when the file leaves it out."""
    value = data.get(key)
    return default if value is None else value


def require_file_director(actor, season, what: str, *, as_system: bool = False) -> None:
    """Only the institution's director (or a command acting as the site) saves a league file."""
    if actor is None and not as_system:
        raise NotAllowed("Sign in first.")
    if actor is not None and not roles.is_director_of(actor, season.institution):
        raise NotAllowed(f"Only the institution's director can create {what}.")


def locked_league_of_file(
    slug: str, season, kind: str, what: str, *, update: bool
) -> League | None:
    """The league the file names, locked, if it exists and the file may change it: refused
    without `update`, or when it is another season's or another format's (`what` names the
    format: "a club", "an event")."""
    league = (
        League.objects.select_for_update()
        .filter(campus_id=season.institution_id, slug=slug)
        .first()
    )
    if league is not None and not update:
        raise LeagueSlugTaken(
            f"Your campus already has a league {slug!r}: give the file another slug, or "
            "change the existing league instead."
        )
    if league is not None and (league.season_id != season.pk or league.format != kind):
        raise LeagueFileError(
            f"Your campus's league {slug!r} is another season's or is not {what}: give the "
            "file another slug."
        )
    return league


def shared_settings(file, season) -> dict:
    """The League fields every format's file gives, read from its parsed file (a club's or an
    event's: both carry these attributes); the venue, when left out, the institution's."""
    return {
        "name": file.name,
        "venue": file.venue or season.institution.default_venue,
        "public": file.public,
        "public_names": file.public_names,
        "search_engines": file.search_engines,
        "campus_only": file.campus_only,
        "rating_weight": file.rating_weight,
        "lexicon": file.lexicon,
        "end_of_game_rule": file.end_of_game_rule,
        "challenge_rule": file.challenge_rule,
        "challenge_points": file.challenge_points,
    }


def shared_export(league: League) -> dict:
    """The keys every format's file gives, read back from the league (the exporters' part)."""
    return {
        "name": league.name,
        "venue": league.venue,
        "public": league.public,
        "public_names": league.public_names or None,
        "search_engines": league.search_engines,
        "campus_only": league.campus_only,
        "rating_weight": league.rating_weight,
        "lexicon": league.lexicon,
        "end_of_game_rule": league.end_of_game_rule,
        "challenge_rule": league.challenge_rule,
        "challenge_points": league.challenge_points,
    }


def save_settings(row, settings: dict) -> bool:
    """Set the row's fields (a league's, or its format's own row's) that differ from
    `settings`; whether any did."""
    differs = {key: value for key, value in settings.items() if getattr(row, key) != value}
    for key, value in differs.items():
        setattr(row, key, value)
    if differs:
        row.save(update_fields=list(differs))
    return bool(differs)
