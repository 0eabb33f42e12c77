"""Client addresses behind reverse proxies.

``TRUSTED_PROXY_COUNT`` says how many proxies stand in front of daphne. Each appends the
address it received the request from to ``X-Forwarded-For``, so the client is the entry that
many places from the right; anything further left is whatever the client chose to send.
"""

from __future__ import annotations

from django.conf import settings


def client_ip(request) -> str:
    """The address of the client as the trusted proxies saw it."""
    return getattr(request, "client_ip", None) or _resolve(request)


def _resolve(request) -> str:
    remote = request.META.get("REMOTE_ADDR", "") or ""
    count = settings.TRUSTED_PROXY_COUNT
    if count <= 0:
        return remote
    forwarded = [
        part.strip()
        for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if part.strip()
    ]
    if len(forwarded) >= count:
        return forwarded[-count]
    # Fewer entries than proxies: the request did not come through all of them.
    return forwarded[0] if forwarded else remote


class TrustedProxyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.client_ip = _resolve(request)
        return self.get_response(request)
