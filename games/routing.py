from django.urls import re_path

from games import consumers

# Any path segment reaches the consumer, which refuses a code that is no table code with
# 4404 like an unknown table: a path no route matches would crash the router (1011) instead.
websocket_urlpatterns = [
    # The page's language rides in the path; the bare form takes the player's language.
    re_path(r"^ws/(?P<lang>de|en)/tables/(?P<code>[^/]+)/$", consumers.TableConsumer.as_asgi()),
    re_path(r"^ws/tables/(?P<code>[^/]+)/$", consumers.TableConsumer.as_asgi()),
]
