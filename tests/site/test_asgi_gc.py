"""The server leaves what it loaded at start out of the cyclic collector's full passes."""

import gc


def test_the_objects_loaded_at_start_are_frozen():
    from cardsite import asgi

    assert asgi.application is not None
    # Django, the URL patterns, the consumers and the models: tens of thousands of objects
    # that a full collection no longer walks (its pauses were 60-100 ms under play).
    assert gc.get_freeze_count() > 10_000
