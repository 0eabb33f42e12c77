"""The server leaves what it loaded at start out of the cyclic collector's full passes."""

import gc


def test_the_objects_loaded_at_start_are_frozen():
    from cardsite import asgi

    assert asgi.application is not None
    # Django, the URL patterns, the consumers and the models: tens of thousands of objects
    # that a full collection no longer walks (its pauses were 60-100 ms under play).
    assert gc.get_freeze_count() > 10_000


def test_the_rating_model_is_loaded_at_start():
    import sys

    from cardsite import asgi
    from games import ratings

    assert asgi.application is not None
    assert ratings.model.cache_info().currsize == 1 and "openskill.models" in sys.modules
