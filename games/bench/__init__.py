"""Benchmarks of the engines and the bots: ``harness`` is generic, ``<game>.py`` plug-ins
name a game's own scenarios (see ``harness`` for the plug-in interface)."""
