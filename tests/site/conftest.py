import pytest
from django.contrib.auth import get_user_model

PASSWORD = "Kartenspiel-2026"


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", "alice@example.com", PASSWORD)


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", "bob@example.com", PASSWORD)
