"""The record of exports (P6): every download of a roster or of a person's data writes one
``DataExport`` row, here and nowhere else, so the director's list of exports
(``/director/exports/``) misses none."""

from django.db import transaction

from core.errors import NotAllowed

from .. import roles
from ..models import DataExport, Institution, User

WHAT_MAX = DataExport._meta.get_field("what").max_length
SUBJECT_MAX = DataExport._meta.get_field("subject").max_length


def export_record(
    *, institution: Institution, actor: User, what: str, subject: str = "", rows: int = 0
) -> DataExport:
    """`actor` downloaded `what` (the file's kind, e.g. ``roster.csv``) about `subject` (a
    season, a league, a person), `rows` rows of people or matches (P6). Only someone of the
    institution (its staff, or a student taking their own data) or a site admin downloads its
    data; the view decides what they may download, this records that they did."""
    if not (roles.is_site_admin(actor) or roles.institution_of(actor) == institution):
        raise NotAllowed("Only the institution's own people download its data.")
    with transaction.atomic():
        return DataExport.objects.create(
            institution=institution,
            actor=actor,
            what=what[:WHAT_MAX],
            subject=subject[:SUBJECT_MAX],
            rows=max(0, rows),
        )
