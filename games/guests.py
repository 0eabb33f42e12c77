"""Guest accounts: Play now without signing up.

A guest is an ordinary user with an unusable password and ``profile.is_guest``; signing up
later turns the same account into a registered one, so its matches and history stay.
Creation is rate-limited per client address; unused guests are removed by
``manage.py delete_stale_guests``.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from cardsite import ratelimit
from cardsite.accounts.models import Profile


class GuestLimit(Exception):
    pass


def create_guest(ip: str, language: str):
    limit = ratelimit.Limit.of("guest", ip, settings.GUEST_LIMIT_PER_HOUR, 3600)
    try:
        # Counted atomically before the guest is made: parallel "Play now" requests each get
        # their own count, so no more than the limit of them get through.
        ratelimit.take(limit)
    except ratelimit.Exceeded:
        raise GuestLimit from None
    user_model = get_user_model()
    with transaction.atomic():
        while True:
            name = f"guest-{secrets.token_hex(4)}"
            if not user_model.objects.filter(username=name).exists():
                break
        user = user_model.objects.create_user(name)
        user.set_unusable_password()
        user.save(update_fields=["password"])
        Profile.objects.create(user=user, is_guest=True, language=language)
    return user


def is_guest(user) -> bool:
    if not user.is_authenticated:
        return False
    try:
        return user.profile.is_guest
    except Profile.DoesNotExist:
        return False


def stale_guests(days: int):
    """Guests not seen for ``days`` days: no login and no move at any of their tables since."""
    from django.db.models import Q

    cutoff = timezone.now() - timedelta(days=days)
    return (
        get_user_model()
        .objects.filter(profile__is_guest=True, date_joined__lt=cutoff)
        .filter(Q(last_login__isnull=True) | Q(last_login__lt=cutoff))
        .exclude(seat__table__updated_at__gte=cutoff)
    )
