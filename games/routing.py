from django.urls import re_path

from games import consumers

websocket_urlpatterns = [
    # The page's language rides in the path; the bare form takes the player's language.
    re_path(
        r"^ws/(?P<lang>de|en)/tables/(?P<code>[0-9a-f-]{36})/$", consumers.TableConsumer.as_asgi()
    ),
    re_path(r"^ws/tables/(?P<code>[0-9a-f-]{36})/$", consumers.TableConsumer.as_asgi()),
]
