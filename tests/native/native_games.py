"""Every game's cases of the native tests every game runs (``test_games_*.py``), by name."""

from __future__ import annotations

from baebae_native_support import GAME as BAEBAE
from baha_native_support import GAME as BAHA
from native_support import NativeGame

GAMES: dict[str, NativeGame] = {game.name: game for game in (BAHA, BAEBAE)}
