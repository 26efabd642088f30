"""Types of the extension built from native/module.cpp (cardroom.native._core)."""

from collections.abc import Callable
from typing import Any

def blake2b(data: bytes, size: int) -> bytes: ...
def chance_rng(text: str) -> Random: ...
def baha_deck(text: str) -> list[int]: ...

class Random:
    def __init__(self, seed: int) -> None: ...
    def getrandbits(self, k: int) -> int: ...
    def randbelow(self, n: int) -> int: ...
    def random(self) -> float: ...
    def shuffle(self, values: list[int]) -> list[int]: ...
    def sample(self, values: list[int], k: int) -> list[int]: ...
    def choice(self, values: list[int]) -> int: ...

class BahaCore:
    def __init__(
        self, players: int, face: bool, passing: bool, moon: bool, target: int, draw_pile: bool,
        random_dealer: bool, seed: str, hand: int, totals: list[int],
        dealt: tuple[list[int], int, list[int], int] | None,
    ) -> None: ...
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: int) -> list[dict[str, Any]] | None: ...
    def random_playout(self, random: Callable[[], float]) -> None: ...
    def clone(self) -> BahaCore: ...
    def load(self, *fields: Any) -> None: ...
    turn: int | None
    winner: int | None
    phase: int
    hand_no: int
    dealer: int
    leader: int
    tricks_done: int
    pass_offset: int
    leftover: int
    played: int
    hands: list[int]
    taken: list[int]
    face_down: list[int]
    picks: list[int]
    passed: list[int]
    received: list[int]
    voids: list[int]
    totals: list[int]
    draw_pile: list[int]
    trick: list[int]
    last_trick: dict[str, Any] | None
    hand_start: int
    log: list[dict[str, Any]]
    history: list[tuple[int, int]]

def baha_random_games(
    players: int, face: bool, passing: bool, moon: bool, target: int, draw_pile: bool, random_dealer: bool,
    first_seed: int, games: int, max_actions: int, exact: bool,
) -> dict[str, list[int]]: ...
