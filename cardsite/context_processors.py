from django.conf import settings


def site(request):
    from games.registry import table_games

    return {
        "SITE_NAME": settings.SITE_NAME,
        # The navigation's games, from the one registry.
        "NAV_GAMES": [(g.name, g.labels.name) for g in table_games()],
        # Each game's colours, its own stylesheet (templates/_game_colours.html).
        "GAME_STYLESHEETS": [g.stylesheet for g in table_games()],
    }
