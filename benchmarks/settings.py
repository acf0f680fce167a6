"""The benchmark's settings: production settings plus the floor URL (one trivial query)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.urls"
