from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_delete

        pre_delete.connect(
            _forget_player, sender=get_user_model(), dispatch_uid="games.forget_player"
        )


def _forget_player(sender, instance, **kwargs):
    # An account deleted (by its player, or as a stale guest) leaves other people's matches.
    from games import services

    services.forget_player(instance)
