"""The weights files shipped with Cardroom for the ``learned`` agent (``cardroom.agents.learned``):
one safetensors file per game, written by ``cardroom train GAME`` (docs/strength.md)."""
