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
    """The native state type; cardroom.games.baha.native.NativeBahaState subclasses it."""
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: object) -> list[dict[str, Any]]: ...
    def clone(self) -> BahaCore: ...
    rules: Any
    seed: int
    origin: dict[str, Any] | None
    _ref: Any
    n: int
    current_player: int | None
    turn: int | None
    is_over: bool
    scores: list[int]
    totals: list[int]
    deal_number: int
    hand_no: int
    winner: int | None
    log: list[dict[str, Any]]
    history: list[tuple[int, int]]
    dealer: int
    phase_code: int
    hands: list[int]
    taken: list[int]
    face_down: list[int]
    pass_offset: int
    picks: list[int]
    passed: list[int]
    received: list[int]
    leftover: int
    draw_pile: list[int]
    trick: list[int]
    leader: int
    tricks_done: int
    played: int
    voids: list[int]
    last_trick: dict[str, Any] | None
    hand_start: int

def baha_start(
    state: BahaCore, players: int, face: bool, passing: bool, moon: bool, target: int, draw_pile: bool,
    random_dealer: bool, seed: str, hand: int, totals: list[int],
    dealt: tuple[list[int], int, list[int], int] | None,
) -> None: ...
def baha_load(state: BahaCore, *fields: Any) -> None: ...
def baha_random_playout(state: BahaCore, random: Callable[[], float]) -> None: ...

class BahaHeuristic:
    def __init__(self, seed: int) -> None: ...
    def act(self, core: BahaCore) -> int: ...
    def random(self) -> float: ...

def baha_games(
    players: int, face: bool, passing: bool, moon: bool, target: int, draw_pile: bool, random_dealer: bool,
    first_seed: int, games: int, max_actions: int, exact: bool, heuristic: list[bool],
) -> dict[str, list[int]]: ...

class BahaVector:
    """Baha's vector environment (cardroom.games.baha.vector drives it)."""
    def __init__(self, players: int, face: bool, passing: bool, moon: bool, target: int, draw_pile: bool,
                 random_dealer: bool, num_envs: int, self_play: bool, seat: int, heuristic: list[bool],
                 deals: int, max_steps: int, zero_sum: bool) -> None: ...
    size: int
    def bind(self, obs: Any, mask: Any, rewards: Any, terminated: Any, truncated: Any, to_act: Any,
             final_obs: Any, reward_width: int) -> None: ...
    def reset(self, rows: list[int], seeds: list[int]) -> None: ...
    def step(self, actions: Any) -> int: ...
    def legal_actions(self, row: int) -> list[int]: ...
    def turn(self, row: int) -> int: ...
