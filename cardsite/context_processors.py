from django.conf import settings


def site(request):
    from games.registry import table_games

    return {
        "SITE_NAME": settings.SITE_NAME,
        # The navigation's games, from the one registry.
        "NAV_GAMES": [(g.name, g.labels.name) for g in table_games()],
    }
