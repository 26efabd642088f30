"""Each game's own sections of ``cardroom analyze`` (its spec's ``analysis`` names one module
here): the per-game adapters of the analysis front, as ``cli/play/<game>.py`` are the
terminal's. They may import their own game's package; nothing else in ``cardroom.analysis``
names a game."""
