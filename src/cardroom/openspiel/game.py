"""The adapter: one pyspiel Python game per registered Cardroom game.

The chance model. Cardroom's engine draws every chance outcome of a game (each deal's
shuffle, BAEBAE's coins and reshuffles) from the game's seed, keyed by the event
(:func:`cardroom.engine.chance_rng`). The OpenSpiel game therefore begins with one chance
node whose ``DEAL_OUTCOMES`` equally likely outcomes are seeds: outcome ``k`` is
``rules.new_game(seed=k)``. Each seed's deal is the shuffle of a generator seeded by a hash
of the seed, so the outcomes are a uniform sample of the deals; every seed is as likely as
any other, so each of those deals is too. Later chance (a BAEBAE coin, a card drawn from the
stock, the next deal) happens inside the transition of the action that causes it, already
fixed by the seed: OpenSpiel sees it as part of that action's outcome, and no seat can see
it coming, since a seat's strings and tensors are built from its own view only.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from cardroom import games
from cardroom.engine import Action, CardroomInputError, Rules, RulesError, State, check_whole
from cardroom.games import DealLimits, GameSpec

__all__ = [
    "BY_PLAYERS",
    "DEAL_OUTCOMES",
    "PREFIX",
    "CardroomGame",
    "CardroomObserver",
    "CardroomState",
    "ObserverError",
    "game_name",
    "load",
    "register",
]

PREFIX = "python_cardroom_"
"""OpenSpiel's name of a Cardroom game is this and the game's name."""

DEAL_OUTCOMES = 1 << 16
"""Outcomes of the chance node that deals: seeds 0 to 65,535. Enough that two given episodes
share a deal one time in 65,536, few enough that ``chance_outcomes()`` stays a list OpenSpiel's
algorithms can walk (about 10 ms to build)."""

BY_PLAYERS = -1
"""The value of a parameter whose default depends on the number of players (BAEBAE's
``hand_size``, Baha's ``draw_pile``): the game's own default. OpenSpiel gives every parameter
a fixed default, so such options are whole-number parameters (an on/off option: 0 or 1)."""

DEALS = "deals"
"""The adapter's own parameter: how many deals one episode lasts (a Baha hand, a BAEBAE
round), at most; an episode also ends with the game."""

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_DEALS = tuple((seed, 1.0 / DEAL_OUTCOMES) for seed in range(DEAL_OUTCOMES))
_registered: dict[str, GameSpec] = {}


class ObserverError(CardroomInputError):
    """An observation type the adapter does not offer; the message lists those it does."""


def game_name(name: str) -> str:
    """OpenSpiel's name for the Cardroom game ``name`` (an :class:`~cardroom.games.UnknownGame`
    error lists the games if there is none)."""
    return PREFIX + _spec_named(name).name


def register() -> list[str]:
    """Register every game of Cardroom's registry that declares its deal limits (which
    OpenSpiel needs: ``GameSpec.deal_limits``) with ``pyspiel``, once; their OpenSpiel names."""
    for spec in games.specs():
        if spec.name not in _registered:
            if spec.deal_limits is None:
                continue
            pyspiel.register_game(_game_type(spec, 1), _factory(spec))
            _registered[spec.name] = spec
    return [PREFIX + name for name in _registered]


def load(name: str, **params: Any) -> Any:
    """The OpenSpiel game of the Cardroom game ``name`` with ``params`` (rule options,
    ``players``, ``deals``): ``pyspiel.load_game`` after :func:`register`."""
    spec = _spec_named(name)
    full = PREFIX + spec.name
    if spec.deal_limits is None:
        raise RulesError(f"game {name!r} declares no deal limits, which OpenSpiel needs")
    register()
    return pyspiel.load_game(full, params)


# -- the game ----------------------------------------------------------------------------


def _by_players(spec: GameSpec) -> dict[str, str]:
    """The options whose default depends on the number of players, with their kinds."""
    return {o.name: o.kind for o in spec.options if o.by_players}


def _parameters(spec: GameSpec) -> dict[str, Any]:
    """OpenSpiel parameters and their defaults: every rule option OpenSpiel can carry (a
    bool, a whole number, a number, a text: a deck file's text list cannot be one), and
    ``deals``."""
    defaults = spec.make_rules().to_dict()
    if DEALS in defaults:
        raise RulesError(f"game {spec.name!r} has an option named {DEALS!r}, which the adapter uses")
    by_players = _by_players(spec)
    params: dict[str, Any] = {}
    for name, value in defaults.items():
        if name in by_players:
            params[name] = BY_PLAYERS
        elif isinstance(value, bool | int | float | str):
            params[name] = value
    params[DEALS] = 1
    return params


def _game_type(spec: GameSpec, deals: int) -> Any:
    """The game's type for episodes of ``deals`` deals: one deal's rewards come at its end
    (terminal); several deals reward each deal at its end (rewards)."""
    fewest, most = spec.players()
    return pyspiel.GameType(
        short_name=PREFIX + spec.name,
        long_name=f"Cardroom {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # returns() is each seat's distance below the table's mean: the sum is 0
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=(pyspiel.GameType.RewardModel.TERMINAL if deals == 1
                      else pyspiel.GameType.RewardModel.REWARDS),
        max_num_players=most,
        min_num_players=fewest,
        provides_information_state_string=True,
        provides_information_state_tensor=spec.observation is not None,
        provides_observation_string=True,
        provides_observation_tensor=spec.observation is not None,
        parameter_specification=_parameters(spec),
    )


def _factory(spec: GameSpec) -> type[CardroomGame]:
    """A subclass of :class:`CardroomGame` for ``spec``: pyspiel is given a class, as its own
    Python games register, since it keeps the factory until the interpreter has gone."""
    name = f"Cardroom{spec.name.title()}Game"
    game_class = type(name, (CardroomGame,), {"spec_name": spec.name, "spec": spec, "__module__": __name__})
    # A module attribute, so that pickle finds the class by name (OpenSpiel pickles a game as
    # its class and its string; a state as its game, its history and its attributes).
    globals()[name] = game_class
    return game_class


def _rules(spec: GameSpec, params: Mapping[str, Any]) -> tuple[Rules, int]:
    """The rules and the number of deals that OpenSpiel's ``params`` ask for."""
    deals = check_whole(params.get(DEALS, 1), DEALS, 1, note=" (deals in an episode)")
    by_players = _by_players(spec)
    options: dict[str, Any] = {}
    for name, value in params.items():
        if name == DEALS or name in by_players and value == BY_PLAYERS:
            continue
        if by_players.get(name) == "bool":
            if value not in (0, 1) or isinstance(value, bool):
                raise RulesError(
                    f"option {name} takes {BY_PLAYERS} (by the number of players), 0 (off) or 1 (on), "
                    f"not {value!r}"
                )
            value = bool(value)
        options[name] = value
    return spec.make_rules(options), deals


@dataclass(frozen=True)
class _Setup:
    """What a game's states need, made once per set of parameters."""

    params: str
    """OpenSpiel's parameters as given, as JSON: what the setup is made from again."""
    spec: GameSpec
    rules: Rules
    deals: int
    actions: int
    limits: DealLimits
    encoder: Any
    """The game's observation encoder (``GameSpec.observation``), or ``None``."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self  # frozen, and shared by every state of the game

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        # Pickled by name and parameters, made again (or found) where it is unpickled: the
        # spec's functions and the encoder are the code's, not data to copy.
        return _setup_named, (self.spec.name, self.params)


_setups: dict[tuple[str, str], _Setup] = {}


def _setup(spec: GameSpec, params: Mapping[str, Any]) -> _Setup:
    key = (spec.name, json.dumps(dict(params), sort_keys=True))
    setup = _setups.get(key)
    if setup is None:
        rules, deals = _rules(spec, params)
        if spec.deal_limits is None:
            raise RulesError(f"game {spec.name!r} declares no deal limits, which OpenSpiel needs")
        limits = spec.load("deal_limits")(rules)
        encoder = None if spec.observation is None else spec.load("observation")
        actions = spec.info.num_actions(rules)
        setup = _setups[key] = _Setup(key[1], spec, rules, deals, actions, limits, encoder)
    return setup


def _setup_named(name: str, params: str) -> _Setup:
    """The setup of the Cardroom game ``name`` with OpenSpiel's ``params`` (JSON): what an
    unpickled state is given."""
    return _setup(_spec_named(name), json.loads(params))


def _setup_of(game: Any) -> _Setup:
    """The setup of an OpenSpiel game of this adapter, read from what pyspiel itself keeps
    (its name and parameters): pyspiel may hand back a game whose Python attributes are gone
    when it made the game itself (a clone, a game rebuilt from its string)."""
    name = game.get_type().short_name.removeprefix(PREFIX)
    return _setup(_spec_named(name), game.get_parameters())


def _spec_named(name: str) -> GameSpec:
    """The spec of the Cardroom game ``name``: the adapter's one look-up by name (OpenSpiel and
    its callers name games; pyspiel hands games and pickled states back by name)."""
    spec = _registered.get(name)
    return spec if spec is not None else games.get(name)


class CardroomGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """A Cardroom game with its rules, as OpenSpiel sees it."""

    spec_name: str
    """The name of the Cardroom game, set on each game's subclass (see :func:`register`)."""
    spec: GameSpec
    """The Cardroom game's spec, set on each game's subclass with its name."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        spec = self.spec
        params = dict(params or {})
        setup = _setup(spec, params)
        super().__init__(
            _game_type(spec, setup.deals),
            pyspiel.GameInfo(
                num_distinct_actions=setup.actions,
                max_chance_outcomes=DEAL_OUTCOMES,
                num_players=setup.rules.players,
                min_utility=-setup.deals * setup.limits.returns,
                max_utility=setup.deals * setup.limits.returns,
                utility_sum=0.0,
                max_game_length=setup.deals * setup.limits.actions,
            ),
            params,
        )

    @property
    def rules(self) -> Rules:
        """The Cardroom rules the game is played by."""
        return _setup_of(self).rules

    def new_initial_state(self) -> CardroomState:
        return CardroomState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CardroomObserver:
        """The observer of ``iig_obs_type`` (OpenSpiel's default observation when ``None``):
        the public information (``public_info``, or without it only the private part) with one
        seat's private information (``SINGLE_PLAYER``), with none (``NONE``) or with every
        seat's (``ALL_PLAYERS``); ``perfect_recall`` adds what was seen to the strings."""
        if params:
            raise ObserverError(f"the observer takes no parameters, not {params!r}")
        if iig_obs_type is None:
            return CardroomObserver(_setup_of(self), False, SINGLE)
        private = iig_obs_type.private_info
        if private not in _PRIVATE:
            raise ObserverError(
                "the adapter offers observers with private_info NONE, SINGLE_PLAYER or ALL_PLAYERS, "
                f"with or without the public information and perfect_recall; not private_info={private}"
            )
        return CardroomObserver(_setup_of(self), bool(iig_obs_type.perfect_recall), _PRIVATE[private],
                                public=bool(iig_obs_type.public_info))


class _Engine:
    """The engine's state as a state's attribute: pyspiel clones a Python state by
    deep-copying its attributes, and the engine's own clone is far cheaper."""

    __slots__ = ("state",)

    def __init__(self, state: State | None = None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(None if self.state is None else self.state.clone())


class CardroomState(pyspiel.State):  # type: ignore[misc]
    """A Cardroom state: before the deal, a chance node; then the engine's state."""

    def __init__(self, game: Any, setup: _Setup | None = None) -> None:
        super().__init__(game)
        self.setup = setup or _setup_of(game)
        self._engine = _Engine()
        players = self.setup.rules.players
        self._rewards = [0.0] * players
        """Each seat's reward for the last transition: the change of ``returns()``."""
        self._returns = [0.0] * players
        """``returns()`` after the last deal that ended (they change only when one does)."""

    @property
    def cardroom(self) -> State | None:
        """The engine's state, once dealt."""
        return self._engine.state

    @cardroom.setter
    def cardroom(self, state: State | None) -> None:
        self._engine.state = state

    # -- OpenSpiel's API -------------------------------------------------------------

    def current_player(self) -> int:
        # pyspiel asks this several times per action: kept to a few attribute reads.
        state = self._engine.state
        if state is None:
            return _CHANCE
        player = state.current_player
        if player is None or state.deal_number > self.setup.deals:
            return _TERMINAL
        return player

    def _legal_actions(self, player: int) -> list[Action]:
        state = self._engine.state
        if state is None or player < 0 or player != self.current_player():
            return []
        return sorted(state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.cardroom is not None:
            return []
        return list(_DEALS)

    def _apply_action(self, action: Action) -> None:
        if self.cardroom is None:
            if not 0 <= action < DEAL_OUTCOMES:
                raise RulesError(f"a deal is a seed from 0 to {DEAL_OUTCOMES - 1}, not {action!r}")
            self.cardroom = self.setup.rules.new_game(action)
            self._returns = self.cardroom.returns()
            return
        state = self.cardroom
        deal = state.deal_number
        state.apply(action)
        if state.deal_number != deal or state.is_over:
            # A deal ended: its change of returns() is this transition's reward, so that the
            # rewards of an episode add up to its returns() at every step.
            now = state.returns()
            self._rewards = [a - b for a, b in zip(now, self._returns, strict=True)]
            self._returns = now
        elif any(self._rewards):
            self._rewards = [0.0] * len(self._rewards)

    def _action_to_string(self, player: int, action: Action) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal from seed {action}"
        state = self.cardroom or self.setup.rules.new_game(0)
        return state.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.current_player() == _TERMINAL

    def returns(self) -> list[float]:
        """Each seat's result so far: the engine's ``returns()`` (its distance below the
        table's mean), which moves only when a deal ends."""
        return self._returns[:]

    def rewards(self) -> list[float]:
        """Each seat's reward for the last transition: the change of ``returns()`` when it
        ended a deal, else 0."""
        return self._rewards[:]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardroomState:
        """A state ``player_id`` cannot tell from this one, its hidden cards (and the
        chance still to come) dealt again: the engine's ``determinize``, seeded by the
        sampler."""
        world: CardroomState = self.clone()
        state = self.cardroom
        if state is not None:
            rng = random.Random(int(probability_sampler() * (1 << 53)))
            world.cardroom = state.determinize(player_id, rng)
        return world

    def __str__(self) -> str:
        state = self.cardroom
        if state is None:
            return "before the deal"
        return json.dumps({"seed": state.seed, "actions": [a for _, a in state.history]})


PUBLIC, SINGLE, ALL = "public", "single", "all"
"""Whose private information an observer holds: nobody's, the seat's own, every seat's."""
_PRIVATE = {pyspiel.PrivateInfoType.NONE: PUBLIC, pyspiel.PrivateInfoType.SINGLE_PLAYER: SINGLE,
            pyspiel.PrivateInfoType.ALL_PLAYERS: ALL}


class CardroomObserver:
    """What an observer may know, as OpenSpiel's observer: a string and a tensor.

    ``private`` says whose private information it holds besides the public information:

    - ``SINGLE`` (OpenSpiel's observation and information state): the string is the seat's
      view now (``view(seat)``, JSON), and with ``perfect_recall`` also the seat's log
      (``view_log(seat)``: everything it saw happen, in order). The tensor is the game's
      observation encoder (``GameSpec.observation``), each slice a named view in ``dict``; it
      summarizes the seat's knowledge (cards seen, passes, totals...) rather than keeping every
      move in order, so it is not perfect recall even when the string is.
    - ``PUBLIC``: the string is what anyone watching knows (``public_view()``, with
      ``perfect_recall`` the log as a spectator saw it), the same for every seat; the tensor
      holds the public slices of the encoder's array (those not in its ``private``) as seat 0
      would see them, per-seat entries in seat order from seat 0, the same for every seat.
    - ``ALL``: the string holds every seat's view (with ``perfect_recall``, every seat's log
      too); the tensor is every seat's array in seat order, ``dict`` naming each slice
      ``seat_<s>.<slice>``. Cards in nobody's hand (Baha's leftovers, BAEBAE's stock) stay
      hidden: they are chance's, not a player's.

    Without the public information (``public=False``, OpenSpiel's private observations, which
    ``generate_playthrough`` shows) the string holds only what the seat knows that a spectator
    does not: the entries of ``view(seat)`` that differ from ``public_view()`` (``seat``,
    ``hand``, its picks or pending decision...), with ``perfect_recall`` the events of its log
    that it saw otherwise than a spectator did; ``ALL`` every seat's, ``PUBLIC`` nothing (an
    empty string). The tensor is empty: the encoders' arrays mix public and private entries.
    """

    def __init__(
        self, setup: _Setup, perfect_recall: bool, private: str = SINGLE, *, public: bool = True
    ) -> None:
        self.setup = setup
        self.perfect_recall = perfect_recall
        self.private = private
        self.public = public
        encoder = setup.encoder
        size = 0 if encoder is None or private == PUBLIC or not public else encoder.size(setup.rules)
        self.size = size
        seats = setup.rules.players if private == ALL else 1
        self.dict: dict[str, Any] = {}
        self._public: list[tuple[int, int, int]] = []
        """The public observer's slices: (start in the tensor, start and stop in seat 0's array)."""
        if encoder is not None and private == PUBLIC and public:
            at = 0
            for part in encoder.slices(setup.rules):
                if part.name not in encoder.private:
                    self._public.append((at, part.start, part.stop))
                    at += part.stop - part.start
            self._scratch = np.zeros(encoder.size(setup.rules), np.float32)
            self.tensor = np.zeros(at, np.float32)
            parts = [part for part in encoder.slices(setup.rules) if part.name not in encoder.private]
            for (start, low, high), part in zip(self._public, parts, strict=True):
                self.dict[part.name] = self.tensor[start:start + high - low]
            return
        self.tensor = np.zeros(seats * size, np.float32)
        if size:
            for seat in range(seats):
                prefix = f"seat_{seat}." if private == ALL else ""
                for part in encoder.slices(setup.rules):
                    start = seat * size
                    self.dict[prefix + part.name] = self.tensor[start + part.start:start + part.stop]

    def set_from(self, state: CardroomState, player: int) -> None:
        cardroom = state.cardroom
        if cardroom is not None and self._public:
            # The public slices of seat 0's array: per-seat entries in seat order from seat 0,
            # the same for every player.
            self.setup.encoder.encode(cardroom, 0, self._scratch)
            for start, low, high in self._public:
                self.tensor[start:start + high - low] = self._scratch[low:high]
            return
        if cardroom is None or not self.size:
            self.tensor.fill(0)  # before the deal, nobody knows anything
            return
        encode = self.setup.encoder.encode
        if self.private == ALL:
            size = self.size
            for seat in range(self.setup.rules.players):
                encode(cardroom, seat, self.tensor[seat * size:(seat + 1) * size])
        else:
            encode(cardroom, player, self.tensor)

    def string_from(self, state: CardroomState, player: int) -> str:
        cardroom = state.cardroom
        private = self.private
        if not self.public:
            return self._private_string(cardroom, player)
        if cardroom is None:
            return "before the deal" if private != SINGLE else f"seat {player}, before the deal"
        seen: dict[str, Any]
        if private == SINGLE:
            seen = {"seat": player, "view": cardroom.view(player)}
            if self.perfect_recall:
                seen["log"] = cardroom.view_log(player)
        elif private == PUBLIC:
            seen = {"public": cardroom.public_view()}
            if self.perfect_recall:
                seen["log"] = [cardroom.visible_event(event, -1) for event in cardroom.log]
        else:
            seats = range(self.setup.rules.players)
            seen = {"views": [cardroom.view(seat) for seat in seats]}
            if self.perfect_recall:
                seen["logs"] = [cardroom.view_log(seat) for seat in seats]
        return json.dumps(seen, separators=(",", ":"))

    def _private_string(self, cardroom: State | None, player: int) -> str:
        """What ``player`` (``ALL``: every seat) knows beyond the public information."""
        if self.private == PUBLIC:
            return ""
        seats = range(self.setup.rules.players) if self.private == ALL else [player]
        if cardroom is None:
            seen: dict[str, Any] = {"private": [{"seat": seat} for seat in seats]}
            return json.dumps(seen, separators=(",", ":"))
        public = cardroom.public_view()
        recall = self.perfect_recall
        spectator = [cardroom.visible_event(event, -1) for event in cardroom.log] if recall else []
        parts = []
        for seat in seats:
            part: dict[str, Any] = {key: value for key, value in cardroom.view(seat).items()
                                    if key not in public or public[key] != value}
            if self.perfect_recall:
                part["log"] = [[index, event] for index, (event, seen_by_all) in
                               enumerate(zip(cardroom.view_log(seat), spectator, strict=True))
                               if event != seen_by_all]
            parts.append(part)
        return json.dumps({"private": parts}, separators=(",", ":"))
