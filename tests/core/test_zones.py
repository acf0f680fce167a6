"""Time zones in plain words (issue 48): "Central", not "America/Chicago"."""

import zoneinfo

import pytest

from core.zones import zone_choices, zone_long, zone_short


@pytest.mark.parametrize(
    ("key", "short", "long"),
    [
        ("America/Chicago", "Central", "Central Time (Chicago)"),
        ("America/New_York", "Eastern", "Eastern Time (New York)"),
        ("America/Denver", "Mountain", "Mountain Time (Denver)"),
        ("America/Phoenix", "Mountain", "Mountain Time (Phoenix)"),  # no summer time
        ("America/Los_Angeles", "Pacific", "Pacific Time (Los Angeles)"),
        ("America/Anchorage", "Alaska", "Alaska Time (Anchorage)"),
        ("Pacific/Honolulu", "Hawaii", "Hawaii Time (Honolulu)"),
        ("America/Indiana/Indianapolis", "Eastern", "Eastern Time (Indianapolis)"),
        # Elsewhere a zone goes by its city; China's "CST" is not Central.
        ("Asia/Shanghai", "Shanghai", "Shanghai time"),
        ("Europe/London", "London", "London time"),
        ("America/Sao_Paulo", "Sao Paulo", "Sao Paulo time"),
        ("UTC", "UTC", "UTC"),
    ],
)
def test_a_zone_has_a_plain_short_and_long_name(key, short, long):
    assert zone_short(key) == short == zone_short(zoneinfo.ZoneInfo(key))
    assert zone_long(key) == long


def test_every_zone_is_a_choice_and_says_its_plain_name_where_it_has_one():
    choices = dict(zone_choices())
    assert set(choices) == zoneinfo.available_timezones()
    assert choices["America/Chicago"] == "America/Chicago: Central Time (Chicago)"
    assert choices["Europe/London"] == "Europe/London"
