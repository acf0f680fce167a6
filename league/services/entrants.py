"""Who a row of an entrants file or a typed entrant is, whatever the format: the league's entry
already there (by player number, else e-mail, else campus ID, else the only entrant with that
name), or the person to enter (a student by campus ID or e-mail, else a guest where the league
is open to visitors). Events (E3) and clubs (E4) save them with what is their own."""

from django.db.models import Case, CharField, F, Q, Value, When
from django.db.models.functions import Concat, Trim

from accounts.models import PlayerProfile
from accounts.services import guest_for
from league.models import Entry, League


def entries_named(league: League, name: str):
    """The league's entries whose player has this name, ignoring case: a guest's display name,
    a student's full name (as ``PlayerProfile.name`` shows it)."""
    full_name = Case(
        When(player__user__isnull=True, then=F("player__display_name")),
        default=Trim(Concat("player__user__first_name", Value(" "), "player__user__last_name")),
        output_field=CharField(),
    )
    return (
        Entry.objects.filter(league=league)
        .select_related("player__user")
        .annotate(full_name=full_name)
        .filter(full_name__iexact=name)
        .order_by("pk")
    )


def entry_found(
    league: League, *, player_number: int | None, email: str, campus_id: str, name: str, error
) -> Entry | None:
    """A person already entered: the same player number, else e-mail, else campus ID; a row
    with none of the three is the league's only entrant with that name (ignoring case), so the
    same file imported twice changes nothing. Namesakes need a number or an e-mail (`error`,
    the format's DomainError, says so)."""
    entries = Entry.objects.filter(league=league).select_related("player__user")
    if player_number is not None:
        found = entries.filter(player_number=player_number).first()
        if found is not None:
            return found
    if email:
        found = entries.filter(
            Q(player__email__iexact=email) | Q(player__user__email__iexact=email)
        ).first()
        if found is not None:
            return found
    if campus_id:
        return entries.filter(player__campus_id=campus_id).first()
    if player_number is not None or email or not name:
        return None
    namesakes = list(entries_named(league, name)[:2])
    if len(namesakes) > 1:
        raise error(
            f"{entries_named(league, name).count()} entrants are named {name}: "
            "give the player number or the e-mail of the one you mean."
        )
    return namesakes[0] if namesakes else None


def person_to_enter(
    league: League, *, name: str, email: str, campus_id: str, error
) -> PlayerProfile:
    """The student the details name (campus ID, else a student's e-mail), or a guest where the
    league is open to visitors; `error` (the format's DomainError) says why not."""
    institution = league.season.institution
    if campus_id:
        student = (
            PlayerProfile.objects.filter(
                institution=institution, campus_id=campus_id, user__isnull=False
            )
            .select_related("user")
            .first()
        )
        if student is None:
            raise error(f"No student has the campus ID {campus_id}.")
        return student
    if email:
        student = (
            PlayerProfile.objects.filter(institution=institution, user__email__iexact=email)
            .select_related("user")
            .first()
        )
        if student is not None:
            return student
    if league.campus_only:
        raise error(f"{league} is for students only: give {name or 'the entrant'}'s campus ID.")
    if not name:
        raise error("Give the entrant's name.")
    return guest_for(institution=institution, name=name, email=email)


def number_holder(league: League, number: int, *, besides: Entry) -> Entry | None:
    """The league's other entry that already has player number `number`, if any."""
    return (
        Entry.objects.filter(league=league, player_number=number)
        .exclude(pk=besides.pk)
        .select_related("player__user")
        .first()
    )


def guest_renamed(player: PlayerProfile, name: str) -> bool:
    """A guest's name as the row gives it (a student's name is theirs to change); whether it
    changed."""
    if not player.is_guest or not name or player.display_name == name:
        return False
    player.display_name = name
    player.save(update_fields=["display_name"])
    return True
