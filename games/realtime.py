"""Channel-layer group names, built in this one place."""

from __future__ import annotations


def lobby_group() -> str:
    return "lobby"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def table_group(code: str) -> str:
    # Group names allow only ASCII letters, digits, hyphens, underscores and periods.
    return f"table.{code}"
