"""Entering a league: a student joins (L10 and the league's limits), the director enrols (a late
entry after the draw takes the byes), the waitlist of a full league, player numbers."""

from datetime import date

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts.errors import NotEligible
from accounts.models import EligibilityStatus, PlayerProfile
from accounts.selectors import eligibility_of
from accounts.services import require_eligible
from core.errors import DomainError, NotAllowed
from matches.models import Match, MatchStatus, Seat
from matches.services import bye_fill

from .. import formats
from ..models import Entry, League, LeagueFormat, Round, WaitlistEntry
from ..notifications import tell
from ..policies import JoinRefusal, join_refusal
from ..refresh import refresh_leagues
from .staff import lock_league, require_staff


class LeagueError(DomainError):
    pass


def _refusal(
    league: League, player: PlayerProfile, *, today=None, by_director=False, started=None
) -> JoinRefusal | None:
    """`join_refusal` for `player` and the locked `league`, from the database (L10 and the
    league's limits). A guest has no eligibility to look up: an open league admits them, a
    campus-only league refuses them by name (L10, E4)."""
    eligibility = eligibility_of(player, league.season).status
    if player.is_guest:
        require_eligible(profile=player, season=league.season, campus_only=league.campus_only)
        eligibility = EligibilityStatus.ELIGIBLE
    if started is None:
        started = league.started(league.rounds.exists())
    return join_refusal(
        league,
        joined=Entry.objects.filter(
            league=league, player=player, withdrawn_at__isnull=True
        ).exists(),
        waiting=WaitlistEntry.objects.filter(league=league, player=player).exists(),
        players=Entry.objects.filter(league=league, withdrawn_at__isnull=True).count(),
        started=started,
        eligibility=eligibility,
        today=today,
        enrolled_name=player.name if by_director else None,
    )


def _raise(refusal: JoinRefusal):
    raise (NotEligible if refusal.not_eligible else LeagueError)(refusal.reason)


def enter(
    league: League,
    player: PlayerProfile,
    *,
    today: date | None = None,
    by_director: bool = False,
    refresh: bool = True,
    actor=None,
) -> Entry:
    """Add a player to a locked league, if `join_refusal` lets them (L10 and the league's limits).
    After the draw only the director enrols, as a late entry (`_late_entry_byes`)."""
    started = league.started(league.rounds.exists())
    # A director's enrolment after the draw is a late entry: the policy's other answers
    # (already in, full, L10) hold, and the rounds decide whether there is a game to give.
    refusal = _refusal(
        league, player, today=today, by_director=by_director, started=started and not by_director
    )
    if refusal:
        _raise(refusal)
    byes = _late_entry_byes(league, player) if started else []
    existing = Entry.objects.filter(league=league, player=player).first()
    if existing:  # rejoining after a withdrawal
        existing.withdrawn_at = None
        existing.withdrawn_reason = ""
        existing.joined_at = timezone.now()
        existing.save(update_fields=["withdrawn_at", "withdrawn_reason", "joined_at"])
        entry = existing
    else:
        entry = Entry.objects.create(league=league, player=player)
    # A place in the league ends a wait for one (joined, enrolled or given from the waitlist).
    WaitlistEntry.objects.filter(league=league, player=player).delete()
    spec = formats.of(league.format)
    if spec.on_enter is not None:  # an event's entrant starts in its first category
        spec.on_enter(entry)
    if spec.numbers_entrants and entry.player_number is None:
        number_entries(league)
        entry.refresh_from_db(fields=["player_number"])
    for bye in byes:
        bye_fill(actor=actor, match=bye, player=player, reason=f"{player.name} entered late")
    if refresh:  # every entry has a row in the standings (a batch refreshes once, at its end)
        refresh_leagues([league.pk])
    return entry


def _late_entry_byes(league: League, player: PlayerProfile) -> list[Match]:
    """The games a late entrant to a drawn league gets (E1, ours): in each regular round whose
    play-by date has not passed, the bye, which becomes a game between its holder and the late
    entrant. Nobody else's schedule changes and nobody plays twice in a round. A league without
    such a bye (an even number of players, or a late entrant took the byes already) has no game
    to give and refuses, as do a tournament (its bracket is drawn) and a league with no round
    left to play."""
    if league.format != LeagueFormat.LEAGUE:
        raise LeagueError(f"{league}'s bracket is drawn: a late entry has no place in it.")
    if Seat.objects.filter(match__league=league, player=player).exists():
        raise LeagueError(
            f"{player.name} already has matches in {league}: a late entry is for a player new "
            "to its rounds."
        )
    today = league.season.institution.today()
    remaining = Round.objects.filter(league=league, playoff=False, play_by__gte=today)
    if not remaining.exists():
        raise LeagueError(f"{league} has no round left to play: a late entry would have no games.")
    holders = Entry.objects.filter(league=league, withdrawn_at__isnull=True).values("player")
    byes = list(
        Match.objects.filter(
            round__in=remaining, status=MatchStatus.BYE, seats__player__in=holders
        ).order_by("round__number", "id")
    )
    if not byes:
        raise LeagueError(
            f"{league}'s remaining rounds have no bye for a late entrant to take: every player "
            "already has a game each round (an even number of players)."
        )
    return byes


def number_entries(league: League) -> int:
    """Give every entry of a locked league that has no player number the next free one, in the
    order they joined (E3, E4). Numbers already given never change, so a number printed on a
    table list stays its entrant's. Returns how many were numbered."""
    unnumbered = list(
        Entry.objects.filter(league=league, player_number__isnull=True).order_by("joined_at", "id")
    )
    if not unnumbered:
        return 0
    last = Entry.objects.filter(league=league).aggregate(Max("player_number"))["player_number__max"]
    for number, entry in enumerate(unnumbered, start=(last or 0) + 1):
        entry.player_number = number
    Entry.objects.bulk_update(unnumbered, ["player_number"])
    return len(unnumbered)


def _student(actor, league: League) -> PlayerProfile:
    player = PlayerProfile.objects.filter(user=actor).select_related("institution", "user").first()
    if player is None or player.institution_id != league.season.institution_id:
        raise NotAllowed("Only students of the league's institution can join it.")
    return player


def league_join(*, actor, league: League, today: date | None = None) -> Entry:
    """A student joins a league open for registration."""
    player = _student(actor, league)
    with transaction.atomic():
        return enter(lock_league(league), player, today=today)


def waitlist_join(*, actor, league: League, today: date | None = None) -> Entry | WaitlistEntry:
    """A student joins the waitlist of a full league before its draw (`join_refusal` says when
    they may). Should a place have freed meanwhile, they take it: that is the entry returned."""
    player = _student(actor, league)
    with transaction.atomic():
        league = lock_league(league)
        refusal = _refusal(league, player, today=today)
        if refusal is None:
            return enter(league, player, today=today)
        if not refusal.waitlist:
            _raise(refusal)
        return WaitlistEntry.objects.create(league=league, player=player)


def waitlist_leave(*, actor, league: League) -> None:
    """A student leaves a league's waitlist (before the draw, or after it to clear the
    league from their list)."""
    player = _student(actor, league)
    with transaction.atomic():
        league = lock_league(league)
        deleted, _ = WaitlistEntry.objects.filter(league=league, player=player).delete()
        if not deleted:
            raise LeagueError(f"You are not on the waitlist for {league}.")


def give_places(league: League, *, actor) -> list[Entry]:
    """Give the free places of a locked league not yet drawn (the caller's check) to those waiting, in the order they
    joined the waitlist; each is told by e-mail. Someone no longer eligible (L10) is passed over
    and keeps their place on the waitlist. The league row is locked, so nobody joins or leaves
    meanwhile; the waiting rows are locked too, as they are given."""
    if not league.has_waitlist:  # the caller knows the league is not drawn
        return []
    free = league.capacity - Entry.objects.filter(league=league, withdrawn_at__isnull=True).count()
    given = []
    waiting = (
        WaitlistEntry.objects.select_for_update(of=("self",))
        .filter(league=league)
        .select_related("player__user", "player__institution")
        .order_by("joined_at", "id")
    )
    for row in waiting:
        if len(given) >= free:
            break
        try:
            with transaction.atomic():
                # The registration deadline does not hold back someone who was waiting in time.
                entry = enter(league, row.player, by_director=True, refresh=False, actor=actor)
        except DomainError:
            continue
        given.append(entry)
        tell(
            players=[row.player],
            subject=f"A place in {league} is yours",
            lines=[
                f"A place in {league} came free and, first on its waitlist, you have it: you "
                "are in the league.",
                "Your matches appear once the director draws the rounds. If you can no longer "
                "play, withdraw on the league's page so the next person waiting gets the place.",
            ],
            league=league,
        )
    return given


def entry_enrol(*, actor, league: League, player: PlayerProfile) -> Entry:
    """The director enrols a player (after the registration deadline too). After the draw it is
    a late entry: the player takes the bye of each round still to play (`_late_entry_byes`)."""
    with transaction.atomic():
        league = lock_league(league)
        require_staff(actor, league)
        if player.institution_id != league.season.institution_id:
            raise LeagueError(f"{player.name} is not a student of {league.season.institution}.")
        return enter(league, player, by_director=True, actor=actor)
