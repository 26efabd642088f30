"""The learned agent: a small network distilled from the ISMCTS search, read as data.

Its weights are a safetensors file (tensors and a text header, never pickled code) that
:mod:`cardroom.agents.training` writes (``cardroom train GAME``); playing needs NumPy and
``safetensors`` only, no torch. The network reads what the game's observation encoder
(its spec's ``observation``, the one the learning environments give) builds from the seat's
own view, and the legal actions: it sees exactly what a person in that seat may know.

The network: ``layers.0`` .. ``layers.K-1`` (each ``weight`` of ``out x in`` and ``bias``,
ReLU after each), then two heads on the last hidden layer: ``policy`` (one logit per action of
the game's action space) and ``value`` (the seat's return to the end of the deal, in the unit
of ``returns()``). The header's metadata names the format, the game, the number of players
and the observation's size; a file for another game or table is refused in words.

Which weights: ``learned`` plays the weights shipped with Cardroom for the state's game
(``weights=NAME`` names a shipped file, see :func:`shipped`); ``path=FILE`` plays a file of
your own (``cardroom train`` writes one). The web table takes only shipped weights.

>>> from cardroom.games import baha
>>> from cardroom.agents import make
>>> state = baha.Rules(players=4).new_game(seed=1)
>>> bot = make("learned", seed=2)
>>> bot.act(state, state.current_player) in state.legal_actions()
True
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cardroom import games
from cardroom.agents.base import AgentError
from cardroom.engine import Action, State
from cardroom.text import shorten

__all__ = ["FORMAT", "LearnedAgent", "Network", "load_network", "shipped", "shipped_path", "observe"]

FORMAT = "cardroom-learned-1"
"""The ``format`` of a weights file's metadata this module reads."""
WEIGHTS_PACKAGE = "cardroom.agents.weights"
SUFFIX = ".safetensors"
MAX_LAYERS = 8
MAX_FILE_BYTES = 64 * 2**20
Floats = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Network:
    """A loaded network: its layers, heads and what it was trained for."""

    layers: tuple[tuple[Floats, Floats], ...]
    policy: tuple[Floats, Floats]
    value: tuple[Floats, Floats]
    game: str
    players: int
    observation_size: int
    num_actions: int
    metadata: dict[str, str] = field(default_factory=dict)

    def hidden(self, observations: Floats) -> Floats:
        """The last hidden layer for a batch of observations (rows)."""
        h = observations
        for weight, bias in self.layers:
            h = h @ weight.T + bias
            np.maximum(h, 0, out=h)
        return h

    def forward(self, observations: Floats) -> tuple[Floats, Floats]:
        """Logits (rows x actions) and values (rows) for a batch of observations."""
        h = self.hidden(observations)
        logits = h @ self.policy[0].T + self.policy[1]
        values = (h @ self.value[0].T + self.value[1])[:, 0]
        return logits, values

    def probabilities(self, observation: Floats, legal: list[int]) -> npt.NDArray[np.float64]:
        """The policy's probability of each of ``legal`` (a softmax over the legal logits)."""
        logits, _ = self.forward(observation[None, :])
        chosen = logits[0, legal].astype(np.float64)
        chosen -= chosen.max()
        weights = np.exp(chosen)
        result: npt.NDArray[np.float64] = weights / weights.sum()
        return result


def shipped() -> list[str]:
    """The names of the weights files shipped with Cardroom (``learned:weights=NAME``)."""
    folder = resources.files(WEIGHTS_PACKAGE)
    return sorted(p.name[: -len(SUFFIX)] for p in folder.iterdir() if p.name.endswith(SUFFIX))


def shipped_path(name: str) -> Path:
    """The file of the shipped weights ``name``; any other name is refused, listing them."""
    names = shipped()
    if not isinstance(name, str) or name not in names:
        raise AgentError(
            f"learned: no shipped weights {shorten(repr(name), 40)}; the shipped weights are "
            f"{', '.join(names) or 'none'} (a file of your own is path=FILE, on the command line only)"
        )
    return Path(str(resources.files(WEIGHTS_PACKAGE).joinpath(name + SUFFIX)))


def observe(state: State, seat: int) -> Floats:
    """What ``seat`` observes of ``state``: the game's observation encoder on the seat's view."""
    spec = state.rules.spec
    if spec.observation is None:
        raise AgentError(f"learned: {spec.title} has no observation encoder, so no network can play it")
    encoder = spec.load("observation")
    out = np.empty(encoder.size(state.rules), np.float32)
    encoder.encode(state, seat, out)
    return out


class LearnedAgent:
    """Plays the legal action the network likes best (or draws one from its policy, seeded)."""

    name = "learned"

    def __init__(
        self, seed: int | None = None, weights: object = None, path: object = None, sample: object = False
    ) -> None:
        if weights is not None and path is not None:
            raise AgentError("learned: give weights=NAME (shipped) or path=FILE (your own), not both")
        if path is not None and (not isinstance(path, str | Path) or not str(path).strip()):
            raise AgentError(f"learned: path must be a file name, not {shorten(repr(path), 40)}")
        if weights is not None:
            shipped_path(weights)  # type: ignore[arg-type]  # refused in words if not shipped
        if not isinstance(sample, bool):
            raise AgentError(f"learned: sample must be true or false, not {shorten(repr(sample), 40)}")
        self.weights = None if weights is None else str(weights)
        self.path = None if path is None else Path(str(path))
        if self.path is not None:
            load_network(self.path)  # a bad file is refused now, not at the first move
        self.sample = sample
        self.rng = np.random.default_rng(seed)
        self.last_value = 0.0
        """The network's value of the last position it played from (the seat's return)."""

    def network_for(self, state: State) -> Network:
        """The network this agent plays ``state`` with, checked against the state's table."""
        game = state.rules.game
        path = self.path if self.path is not None else shipped_path(self.weights or _default_name(state))
        network = load_network(path)
        players = len(state.scores)
        if network.game != game or network.players != players:
            raise AgentError(
                f"learned: the weights {shorten(path.name, 60)!r} were trained for "
                f"{network.game} with {network.players} players, not {game} with {players}"
            )
        return network

    def act(self, state: State, seat: int) -> Action:
        legal = state.legal_actions()
        network = self.network_for(state)
        observation = observe(state, seat)
        if observation.size != network.observation_size:
            raise AgentError(
                f"learned: the weights read observations of {network.observation_size} numbers; this "
                f"table gives {observation.size} (another deck or rules than they were trained on)"
            )
        logits, values = network.forward(observation[None, :])
        self.last_value = float(values[0])
        if len(legal) == 1:
            return legal[0]
        chosen = logits[0, legal]
        if not self.sample:
            return legal[int(np.argmax(chosen))]
        chances = np.exp(chosen.astype(np.float64) - float(chosen.max()))
        return legal[int(self.rng.choice(len(legal), p=chances / chances.sum()))]


def check_table(rules: Any, weights: object = None) -> None:
    """Refuse, in words, a table the shipped weights (``weights``, else the game's own) cannot
    play: another game, number of players or observation size (a deck of other designs)."""
    game = rules.game
    state = rules.new_game(0)
    name = str(weights) if weights is not None else _default_name(state)
    network = load_network(shipped_path(name))
    players = len(state.scores)
    size = rules.spec.load("observation").size(rules) if rules.spec.observation else -1
    if network.game != game or network.players != players or network.observation_size != size:
        raise AgentError(
            f"learned: the shipped weights {name!r} play {network.game} with {network.players} players "
            f"and its usual deck, not this {game} table of {players}"
        )


def _default_name(state: State) -> str:
    """The shipped weights of a state's game and table: ``GAME`` for the game's usual table
    (four players), ``GAME-N`` for ``N`` players when shipped."""
    game = state.rules.game
    players = len(state.scores)
    names = shipped()
    for name in (f"{game}-{players}", game):
        if name in names:
            return name
    raise AgentError(f"learned: no shipped weights for {game}; the shipped weights are {', '.join(names)}")


def load_network(path: Path) -> Network:
    """The network saved at ``path``, loaded once per file and version (its time and size)."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise AgentError(f"learned: no weights file {shorten(str(path), 60)!r}") from None
    except OSError as err:
        raise AgentError(f"learned: cannot read {shorten(str(path), 60)!r}: {err.strerror or err}") from None
    if not path.is_file():
        raise AgentError(f"learned: {shorten(str(path), 60)!r} is not a file")
    if stat.st_size > MAX_FILE_BYTES:
        raise AgentError(f"learned: {shorten(str(path), 60)!r} is {stat.st_size} bytes, more than a "
                         f"weights file may be ({MAX_FILE_BYTES})")
    return _load(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=16)
def _load(path: str, mtime_ns: int, size: int) -> Network:
    name = shorten(Path(path).name, 60)
    try:
        from safetensors import safe_open
    except ImportError:  # pragma: no cover - a dependency of the core install
        raise AgentError("the learned agent needs safetensors: pip install safetensors") from None
    try:
        with safe_open(path, framework="numpy") as f:
            metadata = dict(f.metadata() or {})
            tensors = {key: f.get_tensor(key) for key in f.keys()}  # noqa: SIM118 (not iterable)
    # A file from outside may be broken in any of the ways a header or its offsets can be.
    except Exception as err:
        raise AgentError(
            f"learned: {name!r} is not a safetensors weights file ({type(err).__name__}: "
            f"{shorten(str(err), 80)})"
        ) from None
    return _network(name, metadata, tensors)


def _network(name: str, metadata: dict[str, str], tensors: dict[str, Any]) -> Network:
    def bad(what: str) -> AgentError:
        return AgentError(f"learned: {name!r} is not a Cardroom network: {what}")

    if metadata.get("format") != FORMAT:
        raise bad(f"its metadata's format is {shorten(repr(metadata.get('format')), 40)}, not {FORMAT!r}")
    game = metadata.get("game", "")
    if game not in games.names():
        raise bad(f"its game {shorten(repr(game), 40)} is none of {', '.join(games.names())}")
    try:
        players = int(metadata.get("players", ""))
        observation_size = int(metadata.get("observation_size", ""))
        num_actions = int(metadata.get("num_actions", ""))
    except ValueError:
        raise bad("its metadata lacks whole numbers players, observation_size and num_actions") from None
    count = 0
    while f"layers.{count}.weight" in tensors:
        count += 1
    if not 1 <= count <= MAX_LAYERS:
        raise bad(f"it has {count} hidden layers (layers.N.weight); 1 to {MAX_LAYERS} are allowed")
    expected = {f"layers.{i}.{part}" for i in range(count) for part in ("weight", "bias")}
    expected |= {"policy.weight", "policy.bias", "value.weight", "value.bias"}
    if set(tensors) != expected:
        missing, extra = sorted(expected - set(tensors)), sorted(set(tensors) - expected)
        raise bad(f"tensors missing: {shorten(', '.join(missing) or 'none', 80)}; "
                  f"unexpected: {shorten(', '.join(extra) or 'none', 80)}")

    def pair(prefix: str, inputs: int, outputs: int | None) -> tuple[Floats, Floats]:
        weight, bias = tensors[f"{prefix}.weight"], tensors[f"{prefix}.bias"]
        for t in (weight, bias):
            if t.dtype != np.float32:
                raise bad(f"{prefix} holds {t.dtype}, not float32")
            if not np.isfinite(t).all():
                raise bad(f"{prefix} holds numbers that are not finite")
        rows = weight.shape[0] if weight.ndim == 2 else -1
        if weight.ndim != 2 or weight.shape[1] != inputs or (outputs is not None and rows != outputs) \
                or bias.shape != (rows,):
            raise bad(f"{prefix} has shapes {tuple(weight.shape)} and {tuple(bias.shape)}; "
                      f"it reads {inputs} numbers" + ("" if outputs is None else f" into {outputs}"))
        return np.ascontiguousarray(weight), np.ascontiguousarray(bias)

    layers = []
    width = observation_size
    for i in range(count):
        layer = pair(f"layers.{i}", width, None)
        layers.append(layer)
        width = layer[0].shape[0]
    policy = pair("policy", width, num_actions)
    value = pair("value", width, 1)
    return Network(
        layers=tuple(layers), policy=policy, value=value, game=game, players=players,
        observation_size=observation_size, num_actions=num_actions, metadata=metadata,
    )


def describe(network: Network) -> str:
    """A line about a network: its game, table, layers and training (from its metadata)."""
    widths = "x".join(str(w.shape[0]) for w, _ in network.layers)
    trained = network.metadata.get("trained")
    extra = ""
    if trained:
        try:
            extra = f"; trained: {json.loads(trained)}"
        except ValueError:
            extra = ""
    return f"{network.game}, {network.players} players, hidden {widths}{extra}"
