"""Equipment at the front desk (L3): boards, dictionaries and clocks lent against a campus ID."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from core.errors import DomainError, NotAllowed

from .. import roles
from ..models import Checkout, EquipmentItem, PlayerProfile, User


def equipment_check_out(
    *, actor: User, item: EquipmentItem, profile: PlayerProfile, now=None
) -> Checkout:
    """Lend a board, dictionary or clock against the student's campus ID, due back after the
    institution's loan time."""
    now = now or timezone.now()
    institution = item.institution
    if not roles.is_front_desk_of(actor, institution):
        raise NotAllowed("Only front-desk staff can lend equipment.")
    if profile.institution_id != institution.pk:
        raise DomainError("That student belongs to another institution.")
    if not profile.campus_id:
        raise DomainError(
            "Equipment is lent against a campus ID, and this person has none on file."
        )
    with transaction.atomic():
        item = EquipmentItem.objects.select_for_update().get(pk=item.pk)
        if not item.active:
            raise DomainError(f"{item} is retired and cannot be lent.")
        open_checkout = (
            Checkout.objects.filter(item=item, checked_in_at__isnull=True)
            .select_related("profile__user")
            .first()
        )
        if open_checkout:
            raise DomainError(
                f"{item} is already out with {open_checkout.profile.name}: check it in first."
            )
        return Checkout.objects.create(
            item=item,
            profile=profile,
            checked_out_by=actor,
            checked_out_at=now,
            due_at=now + timedelta(hours=institution.loan_hours),
        )


def equipment_check_in(*, actor: User, checkout: Checkout, now=None) -> Checkout:
    now = now or timezone.now()
    if not roles.is_front_desk_of(actor, checkout.item.institution):
        raise NotAllowed("Only front-desk staff can check equipment in.")
    with transaction.atomic():
        checkout = Checkout.objects.select_for_update().select_related("item").get(pk=checkout.pk)
        if checkout.checked_in_at is not None:
            raise DomainError(f"{checkout.item} was already checked in.")
        checkout.checked_in_at = now
        checkout.checked_in_by = actor
        checkout.save(update_fields=["checked_in_at", "checked_in_by"])
        return checkout
