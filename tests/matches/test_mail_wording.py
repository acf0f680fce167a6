"""What match mail says (issue 30): every subject names the match and its league ("Confirm the
result: 388–412" named neither), and the director's copy of a dispute tells them to rule, with
a link to the dispute queue, instead of "the director will rule on it"."""

from post_office.models import Email

from matches.services import report_dispute, report_submit


def mail_to(address) -> list[Email]:
    return [email for email in Email.objects.order_by("id") if address in email.to]


def test_every_match_mail_names_the_match_and_its_league(match, player, opponent):
    report_submit(actor=player.user, match=match, scores=[412, 388])

    (told,) = mail_to(opponent.user.email)

    assert match.league.name in told.subject
    assert f"round {match.round.number}: {player.name} v {opponent.name}" in told.subject


def test_l9_the_directors_dispute_mail_asks_for_their_ruling(match, player, opponent, director):
    report = report_submit(actor=player.user, match=match, scores=[412, 388])
    report_dispute(actor=opponent.user, report=report, scores=[388, 412], note="Swapped")

    (ruling,) = [e for e in mail_to(director.user.email) if "disputed" in e.subject.lower()]
    (player_copy,) = [e for e in mail_to(player.user.email) if "disputed" in e.subject.lower()]

    assert "It waits for your ruling in the dispute queue" in ruling.message
    assert "The director will rule on it" not in ruling.message
    assert "/director/disputes/" in ruling.message
    assert "The director will rule on it." in player_copy.message
    assert match.league.name in ruling.subject and match.league.name in player_copy.subject
