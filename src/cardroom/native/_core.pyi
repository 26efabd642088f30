"""Types of the extension built from native/module.cpp (cardroom.native._core)."""

from collections.abc import Callable
from typing import Any, ClassVar, Self

from cardroom.engine import Action, Event

def blake2b(data: bytes, size: int) -> bytes: ...
def chance_rng(text: str, split: bool = ...) -> Random: ...
def agent_rng(seed: int, seat: int, split: bool = ...) -> Random: ...
def baha_deck(text: str, split: bool = ...) -> list[int]: ...

class Random:
    def __init__(self, seed: int) -> None: ...
    def getrandbits(self, k: int) -> int: ...
    def randbelow(self, n: int) -> int: ...
    def random(self) -> float: ...
    def shuffle(self, values: list[int]) -> list[int]: ...
    def sample(self, values: list[int], k: int) -> list[int]: ...
    def choice(self, values: list[int]) -> int: ...

class _CoreType:
    """What every game's core type has (native/cardroom/core_type.hpp, made from the game's
    traits; a name of the stubs only): a plain CPython type, its per-action calls with no
    pybind11 dispatch, the Python face's fields as members."""
    def legal_actions(self) -> list[int]: ...
    def apply(self, action: object) -> list[dict[str, Any]]: ...
    def clone(self) -> Self: ...
    rules: Any
    seed: Any
    origin: dict[str, Any] | None
    _ref: Any
    n: int
    current_player: int | None
    is_over: bool
    scores: list[int]
    deal_number: int

class _VectorType:
    """What every game's vector environment has (native/cardroom/vector.hpp's bind_vector; a
    name of the stubs only)."""
    size: int
    actions: int
    def bind(self, obs: Any, mask: Any, rewards: Any, terminated: Any, truncated: Any, to_act: Any,
             final_obs: Any, reward_width: int) -> None: ...
    def reset(self, rows: list[int], seeds: list[int]) -> str: ...  # empty, or why a row stopped
    def step(self, actions: Any) -> int | str: ...  # -1, the first bad row, or why a row stopped
    def legal_actions(self, row: int) -> list[int]: ...
    def turn(self, row: int) -> int: ...

class _HeuristicType:
    """What every game's native heuristic player has (a name of the stubs only)."""
    def __init__(self, seed: int, split: bool = ...) -> None: ...
    def random(self) -> float: ...

class BahaCore(_CoreType):
    """The native state type; cardroom.games.baha.native.NativeBahaState subclasses it."""
    seed: int
    # fields of BahaCore: generated from cardroom.games.baha.fields (python -m cardroom.games.fieldgen)
    hand_no: int
    dealer: int
    phase_code: int
    turn: int | None
    hands: list[int]
    taken: list[int]
    face_down: list[int]
    picks: list[int]
    passed: list[int]
    received: list[int]
    leftover: int
    draw_pile: list[int]
    trick: list[int]
    leader: int
    tricks_done: int
    pass_offset: int
    played: int
    voids: list[int]
    totals: list[int]
    winner: int | None
    log: list[Event]
    last_trick: dict[str, Any] | None
    hand_start: int
    history: list[tuple[int, Action]]
    # end of the generated fields

class BahaRules:
    """Baha's rules as the core plays them, one object made from the Python rules whole
    (cardroom.games.baha.native.core_rules): each option the core reads (``options``, the list in
    native/cardroom/baha.hpp) read by its name, and readable by it."""
    options: ClassVar[tuple[str, ...]]
    def __init__(self, rules: object) -> None: ...
    def __getattr__(self, option: str) -> bool | int | str: ...

def baha_start(
    state: BahaCore, rules: BahaRules, seed: str, hand: int, totals: list[int],
    dealt: tuple[list[int], int, list[int], int] | None,
) -> None: ...
def baha_load(state: BahaCore, reference: Any) -> None: ...
def baha_random_playout(state: BahaCore, random: Callable[[], float]) -> None: ...

class BahaHeuristic(_HeuristicType):
    def act(self, core: BahaCore) -> int: ...

def baha_games(
    rules: BahaRules, first_seed: int, games: int, max_actions: int, exact: bool, heuristic: list[bool],
    flat: bool = ...,
) -> dict[str, Any]: ...
def baha_table_games(
    rules: BahaRules, seeds: list[int], heuristic: list[bool], max_actions: int,
) -> dict[str, tuple[bytes, str]]: ...

def baha_knowledge(state: BahaCore, seat: int) -> dict[str, Any]: ...
def baha_determinize(
    world: BahaCore, state: BahaCore, seat: int, seed: int, seen_log: list[dict[str, Any]],
) -> int: ...
class SearchOptions:
    """A native search's options, one object for every game's search (ismcts_options.hpp)."""
    def __init__(
        self, *, iterations: int, seconds: float, exploration: float, heuristic: bool, epsilon: float,
        max_depth: int, seed: int, threads: int, root_prior: list[float] = ..., infer: int = ...,
        infer_epsilon: float = ..., infer_fresh: bool = ..., win: bool = ..., win_temperature: float = ...,
        whole_game: bool = ..., sight: int = ...,
    ) -> None: ...
    iterations: int
    threads: int
    infer: int
    win: bool
    whole_game: bool

def baha_ismcts(
    state: BahaCore, seat: int, options: SearchOptions,
) -> tuple[int, int, list[tuple[int, int, float]]]: ...

def baha_observe(state: BahaCore, seat: int, out: Any) -> None: ...

class BahaVector(_VectorType):
    """Baha's vector environment (cardroom.games.baha.vector drives it)."""
    def __init__(self, rules: BahaRules, num_envs: int, self_play: bool, seat: int, heuristic: list[bool],
                 deals: int, max_steps: int, zero_sum: bool) -> None: ...

# BAEBAE (native/cardroom/baebae_module.hpp)

class BaebaeProgram:
    """A compiled deck (cardroom.games.baebae.program.Program) loaded, with each card's text."""
    def __init__(self, program: Any, cards: list[str]) -> None: ...

def baebae_ops() -> list[str]: ...

class BaebaeCore(_CoreType):
    """The native state type; cardroom.games.baebae.native.NativeBaebaeState subclasses it."""
    space: Any
    _program: Any
    # fields of BaebaeCore: generated from cardroom.games.baebae.fields (python -m cardroom.games.fieldgen)
    round_no: int
    dealer: int
    direction: int
    turn: int | None
    phase_code: int
    hands: list[int]
    stock: list[int]
    discard: list[int]
    suit: int
    declared: bool
    round_penalties: list[int]
    totals: list[int]
    skips: list[int]
    extra_turn: bool
    drawn: int | None
    idle_passes: int
    turns: int
    frames: list[Any]
    pending: Any
    card_declared: bool
    chosen: int | None
    chance: int
    log: list[Event]
    history: list[tuple[int, Action]]
    round_start: int
    ranking: list[dict[str, int]] | None
    shame: list[int]
    guard_rounds: int
    # end of the generated fields

class BaebaeRules:
    """BAEBAE's rules as the core plays them, with their compiled deck, one object made from the
    Python rules whole (cardroom.games.baebae.native.core_rules): each option the core reads
    (``options``, the list in native/cardroom/baebae.hpp) read by its name, and readable by it."""
    options: ClassVar[tuple[str, ...]]
    def __init__(self, rules: object, program: BaebaeProgram) -> None: ...
    def __getattr__(self, option: str) -> bool | int | str: ...

def baebae_start(
    state: BaebaeCore, rules: BaebaeRules, seed: str, dealer: int, totals: list[int], first: list[int] | None,
) -> None: ...

class BaebaeHeuristic(_HeuristicType):
    def act(self, core: BaebaeCore) -> int: ...

def baebae_games(
    rules: BaebaeRules, first_seed: int, games: int, max_actions: int, exact: bool, heuristic: list[bool],
    flat: bool = ...,
) -> dict[str, Any]: ...

def baebae_restricted_games(
    rules: BaebaeRules, seeds: list[int], seats: list[int], never_play: int, never_action: int,
    max_actions: int,
) -> dict[str, list[int]]: ...

def baebae_table_games(
    rules: BaebaeRules, seeds: list[int], heuristic: list[bool], max_actions: int,
) -> dict[str, tuple[bytes, str]]: ...

# BAEBAE's vector environment and a seat's knowledge (native/cardroom/baebae_vector.hpp,
# baebae_knowledge.hpp)

def baebae_observe(state: BaebaeCore, seat: int, out: Any) -> None: ...

class BaebaeVector(_VectorType):
    """BAEBAE's vector environment (cardroom.games.baebae.vector drives it)."""
    def __init__(self, rules: BaebaeRules, num_envs: int, self_play: bool, seat: int, heuristic: list[bool],
                 deals: int, max_steps: int, zero_sum: bool) -> None: ...

def baebae_knowledge(
    state: BaebaeCore, seat: int,
) -> tuple[int, list[list[int]], list[list[tuple[list[int], int]]], list[int]]: ...
