"""iCalendar feeds (RFC 5545) built with the `icalendar` library: a player's scheduled matches and
deadlines, and a league's round deadlines and scheduled matches.

A feed is read by whoever holds its link (calendar services, people it is shared with): every
feed names players in the public style of their league (P2), as the JSON feeds do, and never
as given."""

from datetime import timedelta

from django.conf import settings
from icalendar import Calendar, Event

GAME_LENGTH = timedelta(hours=1)


def _calendar(name: str) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", "-//Intramural Scrabble league//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name)
    return calendar


def _names(match, league=None) -> str:
    """The match's players, named in its league's public style (P1, P2)."""
    style = (league or match.league).names_in_public
    return " v ".join(seat.player.name_in(style) or "TBD" for seat in match.seats.all())


def _add_match_events(calendar: Calendar, match, stamp) -> None:
    url = f"{settings.SITE_URL}{match.get_absolute_url()}"
    if match.scheduled_at and not match.is_final:
        game = Event()
        game.add("uid", f"match-{match.pk}-game@scrabble-league")
        game.add("dtstamp", stamp)
        game.add("dtstart", match.scheduled_at)
        game.add("dtend", match.scheduled_at + GAME_LENGTH)
        game.add("summary", f"Scrabble: {_names(match)}")
        game.add("location", match.venue)
        game.add("url", url)
        calendar.add_component(game)
    if match.status not in ("bye",) and not match.is_final:
        due = Event()
        due.add("uid", f"match-{match.pk}-deadline@scrabble-league")
        due.add("dtstamp", stamp)
        due.add("dtstart", match.deadline - timedelta(minutes=30))
        due.add("dtend", match.deadline)
        due.add(
            "summary",
            f"Deadline: report {_names(match)} ({match.league.name}, round {match.round.number})",
        )
        due.add("url", url)
        calendar.add_component(due)


def player_calendar(profile, matches, stamp) -> bytes:
    calendar = _calendar(f"Scrabble: {profile.name_in(profile.institution.public_names)}")
    for match in matches:
        _add_match_events(calendar, match, stamp)
    return calendar.to_ical()


def league_calendar(league, rounds, stamp) -> bytes:
    calendar = _calendar(f"Scrabble: {league.name}")
    tz = league.season.institution.tz
    for round_ in rounds:
        event = Event()
        event.add("uid", f"league-{league.pk}-round-{round_.number}@scrabble-league")
        event.add("dtstamp", stamp)
        event.add("dtstart", round_.play_by)
        event.add("dtend", round_.play_by + timedelta(days=1))
        event.add("summary", f"{league.name}: round {round_.number} play-by date")
        event.add("location", league.venue)
        calendar.add_component(event)
        for match in round_.matches.all():
            if match.scheduled_at and not match.is_final:
                game = Event()
                game.add("uid", f"match-{match.pk}-game@scrabble-league")
                game.add("dtstamp", stamp)
                game.add("dtstart", match.scheduled_at.astimezone(tz))
                game.add("dtend", match.scheduled_at.astimezone(tz) + GAME_LENGTH)
                game.add("summary", f"Scrabble: {_names(match, league)}")
                game.add("location", match.venue)
                calendar.add_component(game)
    return calendar.to_ical()
