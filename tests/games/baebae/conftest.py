"""BAEBAE tests: make ``baebae_support`` (hand-made decks, deals, the log referee) importable."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
