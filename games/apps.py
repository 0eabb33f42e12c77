from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save, pre_delete

        user_model = get_user_model()
        pre_delete.connect(_forget_player, sender=user_model, dispatch_uid="games.forget_player")
        # The tables' reads keep the seated people a moment (services.store._people).
        profile_model = user_model._meta.get_field("profile").related_model
        for model in (user_model, profile_model):
            for signal in (post_save, post_delete):
                signal.connect(
                    _forget_person, sender=model, dispatch_uid=f"games.forget_person.{model}"
                )


def _forget_player(sender, instance, **kwargs):
    # An account deleted (by its player, or as a stale guest) leaves other people's matches.
    from games import services

    services.forget_player(instance)


def _forget_person(sender, instance, **kwargs):
    from django.contrib.auth import get_user_model

    from games import services

    user_id = instance.pk if sender is get_user_model() else instance.user_id
    services.forget_person(user_id)
