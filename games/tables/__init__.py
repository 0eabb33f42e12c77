"""The site side of each game: one plug-in package per game, with the same module names.

``games/tables/<game>/``:

- ``__init__``  ``LABELS``: the game's name and lobby wording (every game has this);
  ``REVIEW_SAMPLES``: the deals Hard samples per reviewed decision (optional);
- ``rules.de.md``, ``rules.en.md``: the rule page's default texts (cardsite/rules/defaults.py);
- ``presenter`` ``context(table, view, seat, selected)``: one seat's observation and the
  table's public facts -> template context (whether a trick closed, for pacing, is a
  rules fact: the engine's ``trick_closed``); ``parts(context)``: that board as parts
  (``base.Plan``: each region's macro in ``templates/games/<game>/parts.jinja`` and its
  arguments; a socket draws only the parts whose arguments changed);
- ``frames``    ``action(data)``: a browser frame -> an engine action, or None; ``frame(move)``
  its inverse;
- ``replay``    ``context(table, hand, steps, names)``: a finished hand, move by move;
- ``messages``  ``refusal(code, params)``: the game's own refusals as sentences, or None.

A game with a table has all four modules (the registry checks every hook); a game without
one yet has only its labels. The hooks are typed in ``base``; what plug-ins share (cards,
card names, rows of a result) is in ``common``. Plug-ins see one seat's observation and a
``TableSummary``: never the engine state, the database or another game's plug-in.

Beside it, the game's colours are its own stylesheet, ``static/css/<game>-colours.css``; the
registry (``games.registry.TableGame``) gathers all of it into the game's manifest.
"""
