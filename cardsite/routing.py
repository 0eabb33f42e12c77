import os

from django.urls import re_path

from cardsite import consumers
from games.routing import websocket_urlpatterns as game_patterns

# The socket's path carries the page's language prefix: LocaleMiddleware does not run for
# WebSockets, so the consumer activates the language from the URL.
websocket_urlpatterns = [
    re_path(r"^ws/(?P<lang>de|en)/lobby/$", consumers.LobbyConsumer.as_asgi()),
    *game_patterns,
]

# The load benchmark's bare consumer (games/bench/bare.py) exists only in a daphne process
# that `manage.py loadbench` starts with LOADBENCH_BARE=1; the site itself has no such route.
if os.environ.get("LOADBENCH_BARE") == "1":
    from games.bench.bare import websocket_urlpatterns as bare_patterns

    websocket_urlpatterns += bare_patterns
