"""Importing the registrar's roster for a season (L10): the students on it become eligible."""

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from core.errors import DomainError, NotAllowed

from .. import roles
from ..models import (
    Eligibility,
    EligibilityEvent,
    EligibilitySource,
    EligibilityStatus,
    PlayerProfile,
    RosterEntry,
    Season,
    User,
)
from ..roster import decode_roster, parse_roster
from ..signals import names_changed


@dataclass
class RosterImportResult:
    rows_read: int = 0
    added: int = 0
    already_on_roster: int = 0
    newly_eligible: int = 0
    names_withheld: int = 0  # registered students whose name the roster now withholds (P2)
    rejected: list[tuple[int, str]] = field(default_factory=list)

    def summary(self) -> str:
        withheld = (
            f" {self.names_withheld} registered students' names are withheld from now on."
            if self.names_withheld
            else ""
        )
        return (
            f"{self.rows_read} rows read: {self.added} added, {self.already_on_roster} already on the "
            f"roster, {len(self.rejected)} rejected; {self.newly_eligible} registered students became eligible."
            + withheld
        )


class RosterRejected(DomainError):
    """Strict import: some rows were bad, so nothing was imported."""

    def __init__(self, rejected: list[tuple[int, str]]):
        super().__init__(f"{len(rejected)} rows rejected, nothing imported.")
        self.rejected = rejected


BATCH = 2000


def roster_import(
    *,
    actor: User | None,
    season: Season,
    data: bytes,
    encoding: str = "utf-8",
    strict: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> RosterImportResult:
    """Import the registrar's roster CSV for a season and make the listed students eligible.

    The file is read whole before anything is written: a file-level problem raises
    RosterFileError and imports nothing. Bad rows are skipped and reported by line (or, with
    `strict`, refuse the whole import). Importing the same file again changes nothing.
    `actor` None means the command line (a site operator)."""
    institution = season.institution
    if actor is not None and not roles.is_director_of(actor, institution):
        raise NotAllowed("Only the institution's director can import its roster.")
    parsed = parse_roster(
        decode_roster(data, encoding), institution.campus_id_pattern, institution.campus_id_hint
    )
    if strict and parsed.rejected:
        raise RosterRejected(parsed.rejected)
    result = RosterImportResult(
        rows_read=len(parsed.rows) + len(parsed.rejected), rejected=parsed.rejected
    )
    total = len(parsed.rows)
    with transaction.atomic():
        existing = set(
            RosterEntry.objects.filter(
                season=season, campus_id__in=[r.campus_id for r in parsed.rows]
            ).values_list("campus_id", flat=True)
        )
        new_rows = [r for r in parsed.rows if r.campus_id not in existing]
        result.already_on_roster = total - len(new_rows)
        now = timezone.now()
        for start in range(0, len(new_rows), BATCH):
            batch = new_rows[start : start + BATCH]
            RosterEntry.objects.bulk_create(
                [
                    RosterEntry(
                        season=season,
                        campus_id=r.campus_id,
                        first_name=r.first_name,
                        last_name=r.last_name,
                        email=r.email,
                        withholds_name=bool(r.withholds_name),
                        imported_at=now,
                        imported_by=actor,
                    )
                    for r in batch
                ],
                ignore_conflicts=True,
            )
            if progress:
                progress(result.already_on_roster + start + len(batch), total)
        result.added = len(new_rows)
        result.newly_eligible = _make_roster_students_eligible(season=season, actor=actor)
        result.names_withheld = _withhold_as_the_roster_says(season=season, rows=parsed.rows)
    if progress and not new_rows:
        progress(total, total)
    return result


def _withhold_as_the_roster_says(*, season: Season, rows) -> int:
    """The roster's withhold column (P2), where the file has one, is the registrar's word: on
    the season's roster entries and on the registered students with those campus IDs, either
    way. Set-based; returns how many students' names became withheld. Their leagues' pages are
    rendered again after the commit (``signals.names_changed``)."""
    said = [row for row in rows if row.withholds_name is not None]
    if not said:
        return 0
    withheld = [row.campus_id for row in said if row.withholds_name]
    released = [row.campus_id for row in said if not row.withholds_name]
    for campus_ids, value in ((withheld, True), (released, False)):
        RosterEntry.objects.filter(season=season, campus_id__in=campus_ids).exclude(
            withholds_name=value
        ).update(withholds_name=value)
    profiles = PlayerProfile.objects.filter(institution=season.institution_id)
    newly = list(
        profiles.filter(campus_id__in=withheld, registrar_withholds=False).values_list(
            "pk", flat=True
        )
    )
    no_longer = list(
        profiles.filter(campus_id__in=released, registrar_withholds=True).values_list(
            "pk", flat=True
        )
    )
    PlayerProfile.objects.filter(pk__in=newly).update(registrar_withholds=True)
    PlayerProfile.objects.filter(pk__in=no_longer).update(registrar_withholds=False)
    if newly or no_longer:
        names_changed.send(sender=PlayerProfile, profile_ids=newly + no_longer)
    return len(newly)


def _make_roster_students_eligible(*, season: Season, actor: User | None) -> int:
    """Set-based: every registered student on the season's roster who is not yet eligible and
    has no director's ruling becomes eligible. A constant number of queries, whatever the size."""
    on_roster = PlayerProfile.objects.filter(
        institution_id=season.institution_id,
        campus_id__in=RosterEntry.objects.filter(season=season).values("campus_id"),
    )
    decided = {
        e.profile_id: e
        for e in Eligibility.objects.select_for_update(of=("self",)).filter(
            season=season, profile__in=on_roster
        )
    }
    reason = "On the registrar's roster"
    now = timezone.now()
    to_create, to_update, events = [], [], []
    for profile_id in on_roster.values_list("id", flat=True):
        current = decided.get(profile_id)
        if current is None:
            to_create.append(
                Eligibility(
                    profile_id=profile_id,
                    season=season,
                    status=EligibilityStatus.ELIGIBLE,
                    source=EligibilitySource.ROSTER,
                    reason=reason,
                    decided_by=actor,
                    decided_at=now,
                )
            )
            old = EligibilityStatus.PENDING
        elif (
            current.source == EligibilitySource.DIRECTOR
            or current.status == EligibilityStatus.ELIGIBLE
        ):
            continue
        else:
            old = current.status
            current.status, current.source, current.reason = (
                EligibilityStatus.ELIGIBLE,
                EligibilitySource.ROSTER,
                reason,
            )
            current.decided_by, current.decided_at = actor, now
            to_update.append(current)
        events.append(
            EligibilityEvent(
                profile_id=profile_id,
                season=season,
                old_status=old,
                new_status=EligibilityStatus.ELIGIBLE,
                source=EligibilitySource.ROSTER,
                reason=reason,
                actor=actor,
                created_at=now,
            )
        )
    Eligibility.objects.bulk_create(to_create, batch_size=BATCH)
    Eligibility.objects.bulk_update(
        to_update, ["status", "source", "reason", "decided_by", "decided_at"], batch_size=BATCH
    )
    EligibilityEvent.objects.bulk_create(events, batch_size=BATCH)
    return len(events)
