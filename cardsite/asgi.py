"""ASGI entry point: HTTP through Django, WebSockets through Channels' router.

The health endpoints (``/healthz``, ``/readyz``) are answered before Django; under daphne a
SIGTERM drains the process before it stops (``cardsite.shutdown``) and WebSocket frames are
compressed when the browser offers it (``cardsite.compression``). With ``METRICS_PORT`` set,
the process serves its metrics on 127.0.0.1 at that port (``games.metrics``).
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
# Django must be set up before the consumers (and the models they import) are loaded.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from cardsite import compression, shutdown  # noqa: E402
from cardsite.health import HealthChecks  # noqa: E402
from cardsite.routing import websocket_urlpatterns  # noqa: E402
from games import metrics, ratings  # noqa: E402
from games.live import HandshakeGuard  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": HealthChecks(django_asgi_app),
        "websocket": AllowedHostsOriginValidator(
            HandshakeGuard(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)

shutdown.install()
compression.install()
metrics.serve()
# The rating model's library, loaded now rather than in the database thread when the first
# match ends (about half a second there, every table of the process waiting).
ratings.model()

# Everything loaded so far lives as long as the process: left out of the collector's full
# passes, which walked it all (a pause of 60-100 ms every few seconds under play).
gc.freeze()
