"""Cardroom: play, study and simulate the card games Baha and BAEBAE."""

__version__ = "0.1.0"
__all__ = ["__version__"]
