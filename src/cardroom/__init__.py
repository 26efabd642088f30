"""Cardroom: play, study and simulate the card games Baha and BAEBAE."""

from cardroom.compiled import engine_build, pure_requested, use_pure_modules

__version__ = "0.1.0"
__all__ = ["__version__", "engine_build", "native_build"]

# Before any engine module is imported: CARDROOM_PURE=1 passes over the compiled ones.
if pure_requested():
    use_pure_modules()


def native_build() -> str:
    """Whether the native engine is built, and which engine new games run on (``cardroom --version``)."""
    from cardroom.native import describe  # imported late: after the CARDROOM_PURE hook above

    return describe()
