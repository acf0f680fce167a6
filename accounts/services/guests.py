"""Who a guest is (E3, E4): a visitor with no campus ID who never logs in and plays where a league
is open to visitors, at a club night or an event."""

from ..models import Institution, PlayerProfile


def guest_for(*, institution: Institution, name: str, email: str = "") -> PlayerProfile:
    """The guest these details name: a guest of the institution with the same e-mail is the same
    person (their profile, with the name on file, is reused); otherwise a new guest. The name
    and e-mail come tidied and checked by the caller; call inside its transaction."""
    guest = None
    if email:
        guest = PlayerProfile.objects.filter(
            institution=institution, user__isnull=True, email__iexact=email
        ).first()
    if guest is None:
        guest = PlayerProfile.objects.create(
            institution=institution, display_name=name, email=email
        )
    return guest
