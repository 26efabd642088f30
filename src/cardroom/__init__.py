"""Cardroom: play, study and simulate the card games Baha and BAEBAE."""

from cardroom.compiled import engine_build, pure_requested, use_pure_modules

__version__ = "0.1.0"
__all__ = ["__version__", "engine_build"]

# Before any engine module is imported: CARDROOM_PURE=1 passes over the compiled ones.
if pure_requested():
    use_pure_modules()

