"""Which stack this test run uses: CI runs the suite on SQLite with the in-memory channel layer,
then on PostgreSQL with Redis (``.ci/run``)."""

import pytest
from django.conf import settings


def on_postgresql() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def postgresql_only(reason: str):
    """A test (or a module's ``pytestmark``) run on the PostgreSQL pass only, skipped with
    ``reason`` on the other."""
    return pytest.mark.skipif(not on_postgresql(), reason=reason)
