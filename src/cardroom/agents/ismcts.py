"""Single-observer Information Set Monte Carlo Tree Search, generic over the State protocol.

Each iteration deals the hidden cards again from the searcher's seat
(``state.determinize(seat, rng)``), walks one tree with that world, and backs up the result.
The tree is keyed by what the searcher *observes*: its own actions by action, another
player's action by ``state.public_action(action, seat)``, which is the action when the
searcher can see it and ``-1`` when it cannot (another player's pass pick, a card given
between two others). So a hidden choice is one edge, and the search never branches on
what the searcher could not have seen; in that edge the world's own legal actions are
sampled by the rollout policy.

Selection is UCB1 with availability counts (an action's count of the times it was legal,
not its parent's visits), since different worlds allow different actions. The UCB constant is
by default the game's own (its spec's ``exploration``, scaled to the spread of its
``returns()``: the reasons for each figure are beside it, in the game's ``spec.py``).
Rollouts play the world to the end of the current deal (a Baha hand, a BAEBAE round) with the
game's heuristic player (epsilon-greedy) or at random; the result is ``returns()`` then. Heuristic rollouts
are slower but far better judges of a position (see ``docs/strength.md``). Budgets are iterations
or seconds per move; everything random comes from the agent's seed.

When the state offers a native search (:class:`cardroom.engine.NativeSearch`), the
same algorithm runs in C++ (``native/cardroom/ismcts.hpp``), with the GIL released and, with
``threads`` above 1, several trees side by side (root parallel, their root visits summed); its
worlds come from the native determinizer, which deals the same worlds as ``determinize`` can,
from its own random stream. ``engine=python`` keeps the search here.

>>> from cardroom.games import baha
>>> from cardroom.agents import make
>>> state = baha.Rules(players=4).new_game(seed=1)
>>> bot = make("ismcts", seed=2, iterations=50)
>>> bot.act(state, state.current_player) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, cast

from cardroom.agents.ismcts_options import DEFAULT_WIN_TEMPERATURE, ENGINES, check_options
from cardroom.engine import (
    Action,
    NativeInference,
    NativeSearch,
    NativeSearchRoot,
    QuietPlayout,
    State,
    WinReturns,
)

__all__ = ["ISMCTSAgent", "HIDDEN_ACTION", "ENGINES"]

HIDDEN_ACTION = -1


class _Node:
    """Statistics of the edges out of one observed history (and, with a network, the network's
    prior over the searcher's moves there: the same in every world, since the node is what the
    searcher observed)."""

    __slots__ = ("children", "prior")

    def __init__(self) -> None:
        self.children: dict[int, _Edge] = {}
        self.prior: dict[int, float] | None = None


class _Edge:
    __slots__ = ("visits", "reward", "available", "node")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.node = _Node()


class ISMCTSAgent:
    """SO-ISMCTS; see the module documentation.

    Options: ``iterations`` (per move, default 1000) or ``seconds`` (per move; wins if both
    are given), ``exploration`` (the UCB constant; by default the game's spec's ``exploration``),
    ``rollout`` (``heuristic``, the default, or ``random``), ``epsilon`` (chance of a random
    move in heuristic rollouts, default 0.1), ``max_depth`` (tree depth, default 200),
    ``engine`` (``auto``, the default: the native search when the state offers one; ``native``:
    that or an error; ``python``: this module's), ``threads`` (root-parallel trees of the native
    search, sharing the iterations; default 1), ``policy`` (``learned``: the game's shipped
    network, :mod:`cardroom.agents.learned`, as a prior over the searcher's moves: PUCT, the mean
    reward plus ``exploration * prior * sqrt(visits) / (1 + the move's visits)``, at the root in
    the native search and at each of the searcher's nodes here) and ``value`` (from 0 to 1, with
    ``policy``: the network's value's share of a leaf's judgement, the roll-out's the rest; 1
    plays no roll-outs; it runs the search here), ``infer`` (worlds weighed by the other seats'
    play, native search only: each tree deals a pool of ``infer`` worlds from the seat's
    knowledge, weighs each by the chance of the other seats' observed card plays this deal under
    the heuristic with noise, and draws each iteration's world from the pool in proportion to
    the weights; Baha's ``native/cardroom/ismcts_infer.hpp``, BAEBAE's
    ``native/cardroom/baebae_infer.hpp``) and ``infer_epsilon`` (that model's noise, more than 0
    and at most 1, default 0.25: a Baha seat plays the heuristic's card with chance
    ``1 - e + e/n``, any other of its ``n`` legal cards with ``e/n``; a BAEBAE seat plays among
    the heuristic's candidates in proportion to ``exp(score)``, with ``1 - e``, any matching card
    with ``e/n``) and
    ``infer_pool`` (``search``, the default: one pool a search tree; ``iteration``: a new pool
    of ``infer`` candidates every iteration, its one world drawn by weight, at ``infer``
    likelihoods an iteration), ``reward`` (what the search backs up: ``points``, the default,
    the state's ``returns()``; ``win``, BAEBAE, each seat's share of the game's win, the state's
    ``win_returns(win_temperature)``, :mod:`cardroom.games.baebae.reward`) and
    ``win_temperature`` (that share's smoothing before the last round, in penalty points a
    square root of the rounds left; default 8), ``horizon`` (``round``, the default: roll-outs
    end with the deal; ``game``: they play every round left, native BAEBAE search only).
    This module's search has no inference: ``infer`` with ``engine=python`` is refused.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: object = 1000,
        seconds: object = None,
        exploration: object = None,
        rollout: object = "heuristic",
        epsilon: object = 0.1,
        max_depth: object = 200,
        engine: object = "auto",
        threads: object = 1,
        policy: object = None,
        value: object = None,
        infer: object = None,
        infer_epsilon: object = None,
        infer_pool: object = None,
        reward: object = None,
        win_temperature: object = None,
        horizon: object = None,
    ) -> None:
        # Options typed ``object``: they come from people's text (any type), and check_options
        # refuses a wrong one in words, True for 1 included (a bool is an int).
        checked = check_options(
            iterations=iterations, seconds=seconds, exploration=exploration, rollout=rollout,
            epsilon=epsilon, max_depth=max_depth, engine=engine, threads=threads, policy=policy,
            value=value, infer=infer, infer_epsilon=infer_epsilon, infer_pool=infer_pool,
            reward=reward, win_temperature=win_temperature, horizon=horizon,
        )
        iterations, max_depth, threads, infer, chance = checked
        self.infer = infer if isinstance(infer, int) else 0
        """Worlds per tree in the inference pool; 0: none (every iteration deals a fresh world)."""
        self.infer_epsilon = float(infer_epsilon) if isinstance(infer_epsilon, int | float) else 0.25
        self.infer_pool = "iteration" if infer_pool == "iteration" else "search"
        """``search``: one weighed pool a search tree; ``iteration``: a new pool each iteration."""
        self.reward = "win" if reward == "win" else "points"
        """What the search backs up: ``points`` (the state's ``returns()``) or ``win`` (its
        ``win_returns()``, the share of the game's win; BAEBAE)."""
        self.win_temperature = (float(win_temperature) if isinstance(win_temperature, int | float)
                                else DEFAULT_WIN_TEMPERATURE)
        self.horizon = "game" if horizon == "game" else "round"
        """How far a roll-out plays: to the end of the ``round`` (a deal) or of the ``game``."""
        self.policy = None if policy is None else str(policy)
        """``learned``: the game's shipped network is the prior of the searcher's moves (PUCT)."""
        self.value = 0.0 if not isinstance(value, int | float) else float(value)
        """The network's share of a leaf's judgement (the rest the roll-out's); 1: no roll-out."""
        self._network: Any = None
        self.engine = "python" if value is not None else str(engine)
        self.threads = threads
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds if isinstance(seconds, int | float) else None
        self.exploration = float(exploration) if isinstance(exploration, int | float) else None
        """The UCB constant asked for; ``None``: each game's own."""
        self.c = self.exploration or 0.0
        """The UCB constant of the current search (set as it begins)."""
        self.rollout = "random" if rollout == "random" else "heuristic"
        self.epsilon = chance
        self.max_depth = max_depth
        self._heuristics: dict[str, Any] = {}
        self.last_iterations = 0

    # -- the agent interface -----------------------------------------------------------

    def act(self, state: State, seat: int) -> Action:
        self._check_reward(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = _Node()
        c = self.exploration
        self.c = state.rules.spec.exploration if c is None else c
        if self.policy is not None:
            self._network = self._learned().network_for(state)
        native = self._native(state)
        if native is not None:
            prior = None
            if self._network is not None:
                prior = self._root_prior(state, seat, legal)
            action, self.last_iterations = native.native_ismcts(
                seat, iterations=self.iterations, seconds=self.seconds, exploration=self.c,
                rollout=self.rollout, epsilon=self.epsilon, max_depth=self.max_depth,
                seed=self.rng.getrandbits(64), threads=self.threads,
                **({} if prior is None else {"root_prior": prior}), **self._infer_options(),
                **self._reward_options(),
            )
            return action
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if deadline is None:
                if done >= self.iterations:
                    break
            elif done and time.perf_counter() >= deadline:
                break
            self._iterate(root, state.determinize(seat, self.rng), seat)
            done += 1
        self.last_iterations = done
        best = max(
            (a for a in legal if a in root.children),
            key=lambda a: (root.children[a].visits, root.children[a].reward),
            default=None,
        )
        return best if best is not None else legal[0]

    def action_values(self, state: State, seat: int) -> dict[Action, tuple[int, float]]:
        """One search for ``seat`` from ``state`` as :meth:`act` runs it, and what its root found:
        per legal action searched, its visits and its mean return for ``seat`` (the value an
        oracle gives each choice; an action visited once or never is left out, its mean a
        guess). Only ``seat``'s view of the position is searched."""
        self._check_reward(state)
        legal = state.legal_actions()
        c = self.exploration
        self.c = state.rules.spec.exploration if c is None else c
        native = self._native(state)
        if native is not None and isinstance(native, NativeSearchRoot):
            _, self.last_iterations, found = native.native_ismcts_root(
                seat, iterations=self.iterations, seconds=self.seconds, exploration=self.c,
                rollout=self.rollout, epsilon=self.epsilon, max_depth=self.max_depth,
                seed=self.rng.getrandbits(64), threads=self.threads, **self._infer_options(),
                **self._reward_options(),
            )
            stats = {key: (visits, reward) for key, visits, reward in found}
        else:
            root = _Node()
            for _ in range(self.iterations):
                self._iterate(root, state.determinize(seat, self.rng), seat)
            self.last_iterations = self.iterations
            stats = {key: (edge.visits, edge.reward) for key, edge in root.children.items()}
        return {a: (stats[a][0], stats[a][1] / stats[a][0]) for a in legal
                if a in stats and stats[a][0] > 1}

    def _native(self, state: State) -> NativeSearch | None:
        """The state's native search, when this agent is to use it (see ``engine``)."""
        from cardroom.agents.base import AgentError

        offered = self.engine != "python" and _native_search(state)
        if offered and self.infer and not isinstance(state, NativeInference):
            raise AgentError(
                f"ismcts: infer (worlds weighed by the other seats' play) is not built for "
                f"{state.rules.game}'s native search yet; leave infer out"
            )
        if offered:
            return cast(NativeSearch, state)
        if self.infer:
            raise AgentError(
                f"ismcts: infer runs in the native search, which this {state.rules.game} state lacks "
                "(its game does not run natively, or CARDROOM_ENGINE=python); leave infer out"
            )
        if self.engine == "native":
            raise AgentError(
                f"ismcts: engine=native, but this {state.rules.game} state has no native search "
                "(its game does not run natively, or CARDROOM_ENGINE=python); "
                "use engine=auto or engine=python"
            )
        if self.threads > 1:
            raise AgentError(
                f"ismcts: threads={self.threads} needs the native search, which this "
                f"{state.rules.game} state lacks; use threads=1"
            )
        return None

    def _reward_options(self) -> dict[str, Any]:
        """The native search's reward and horizon, when not the default (else none: every game takes that)."""
        found: dict[str, Any] = {}
        if self.reward != "points":
            found.update(reward=self.reward, win_temperature=self.win_temperature)
        if self.horizon != "round":
            found["horizon"] = self.horizon
        return found

    def _check_reward(self, state: State) -> None:
        """Refuse ``reward=win`` in words for a game that has no share of the win to back up."""
        if self.reward == "win" and not isinstance(state, WinReturns):
            from cardroom.agents.base import AgentError

            raise AgentError(f"ismcts: reward=win is built for baebae (totals over a fixed number of "
                             f"rounds), not {state.rules.game}; leave reward out")
        if self.horizon == "game":
            native = self._native(state) is not None
            if not native or not isinstance(state, WinReturns):
                from cardroom.agents.base import AgentError

                raise AgentError(f"ismcts: horizon=game is built for baebae's native search, not "
                                 f"{state.rules.game}'s {'native' if native else 'Python'} "
                                 "search; leave horizon out")

    def _infer_options(self) -> dict[str, Any]:
        """The native search's inference options, when asked for (else none: every game takes that)."""
        if not self.infer:
            return {}
        return {"infer": self.infer, "infer_epsilon": self.infer_epsilon, "infer_pool": self.infer_pool}

    # -- one iteration -----------------------------------------------------------------

    def _iterate(self, root: _Node, world: State, seat: int) -> None:
        deal = world.deal_number
        path: list[tuple[_Edge, int]] = []
        node = root
        depth = 0
        expanded = False
        while not world.is_over and depth < self.max_depth and world.deal_number == deal:
            actor = world.current_player
            assert actor is not None
            legal = world.legal_actions()
            keys = _keys(world, legal, actor, seat)
            children = node.children
            if self._network is not None and actor == seat:
                key = self._puct(node, world, seat, keys)
                edge = children.get(key)
                for k in keys:
                    if k in children:
                        children[k].available += 1
                if edge is None:
                    if expanded:
                        break
                    edge = children[key] = _Edge()
                    edge.available = 1
                    expanded = True
                world.apply(key)
                path.append((edge, actor))
                node = edge.node
                depth += 1
                if expanded:
                    break
                continue
            untried = []
            for key in keys:
                edge = children.get(key)
                if edge is None:
                    untried.append(key)
                else:
                    edge.available += 1
            if untried and not expanded:
                key = untried[self.rng.randrange(len(untried))]
                edge = _Edge()
                edge.available = 1
                children[key] = edge
                expanded = True
            elif untried:
                break  # leave the tree: the rollout takes it from here
            else:
                key = self._select(children, keys)
                edge = children[key]
            action = key if key != HIDDEN_ACTION else self._hidden_choice(world, legal, actor)
            world.apply(action)
            path.append((edge, actor))
            node = edge.node
            depth += 1
            if expanded:
                break
        returns = self._judge(world, deal)
        for edge, actor in path:
            edge.visits += 1
            edge.reward += returns[actor]

    def _judge(self, world: State, deal: int) -> list[float]:
        """Each seat's return from the leaf: the roll-out's, the network's value or a mix (``value``)."""
        share = self.value if self._network is not None else 0.0
        live = not world.is_over and world.deal_number == deal
        if share <= 0 or not live:
            self._rollout(world, deal)
            if self.reward == "win":
                return cast(WinReturns, world).win_returns(self.win_temperature)
            return list(world.returns())
        import numpy as np

        from cardroom.agents.learned import observe

        n = len(world.scores)
        seen = np.stack([observe(world, s) for s in range(n)])
        _, values = self._network.forward(seen)
        if share >= 1:
            return [float(v) for v in values]
        self._rollout(world, deal)
        rolled = world.returns()
        return [share * float(v) + (1 - share) * r for v, r in zip(values, rolled, strict=True)]

    def _puct(self, node: _Node, world: State, seat: int, keys: dict[int, None]) -> int:
        """The searcher's move at ``node`` by PUCT over the network's prior: the mean reward
        plus ``c * prior * sqrt(visits here) / (1 + visits of the move)``, an untried move
        valued at 0 (the table's mean return)."""
        prior = node.prior
        if prior is None:
            from cardroom.agents.learned import observe

            legal = list(keys)
            chances = self._network.probabilities(observe(world, seat), legal)
            prior = node.prior = dict(zip(legal, chances.tolist(), strict=True))
        children = node.children
        total = 1 + sum(edge.visits for edge in children.values())
        root = math.sqrt(total)
        c = self.c
        best_key = HIDDEN_ACTION
        best = -math.inf
        for key in keys:
            p = prior.get(key, 0.0)
            edge = children.get(key)
            if edge is None or edge.visits == 0:
                score = c * p * root
            else:
                score = edge.reward / edge.visits + c * p * root / (1 + edge.visits)
            if score > best:
                best, best_key = score, key
        return best_key

    def _root_prior(self, state: State, seat: int, legal: list[Action]) -> list[float]:
        """The network's prior over ``seat``'s legal moves, by action (0 for the others)."""
        from cardroom.agents.learned import observe

        chances = self._network.probabilities(observe(state, seat), legal)
        prior = [0.0] * self._network.num_actions
        for action, p in zip(legal, chances.tolist(), strict=True):
            prior[action] = p
        return prior

    def _learned(self) -> Any:
        from cardroom.agents.learned import LearnedAgent

        agent = self._heuristics.get("learned")
        if agent is None:
            agent = self._heuristics["learned"] = LearnedAgent()
        return agent

    def _select(self, children: dict[int, _Edge], keys: dict[int, None]) -> int:
        c = self.c
        best_key = HIDDEN_ACTION
        best = -math.inf
        for key in keys:
            edge = children[key]
            value = edge.reward / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if value > best:
                best = value
                best_key = key
        return best_key

    def _hidden_choice(self, world: State, legal: list[Action], actor: int) -> Action:
        """A move the searcher cannot see: the rollout policy picks it in this world."""
        return self._policy(world, legal, actor)

    def _rollout(self, world: State, deal: int) -> None:
        if world.is_over or world.deal_number != deal:
            return  # the walk down the tree finished the deal: a quiet playout would play the next
        if self.rollout == "random":
            # The hot loop of the search: bound methods and one float draw per move.
            rand = self.rng.random
            if _quiet(world):
                # the game's own quiet playout: the same moves, without events
                cast(QuietPlayout, world).random_playout(rand)
                return
            legal_actions = world.legal_actions
            apply = world.apply
            while not world.is_over and world.deal_number == deal:
                legal = legal_actions()
                apply(legal[int(rand() * len(legal))])
            return
        while not world.is_over and world.deal_number == deal:
            actor = world.current_player
            assert actor is not None
            world.apply(self._policy(world, world.legal_actions(), actor))

    def _policy(self, world: State, legal: list[Action], actor: int) -> Action:
        if self.rollout == "heuristic" and self.rng.random() >= self.epsilon:
            action: Action = self._heuristic(world).act(world, actor)
            return action
        return legal[self.rng.randrange(len(legal))]

    def _heuristic(self, world: State) -> Any:
        game = world.rules.game
        agent = self._heuristics.get(game)
        if agent is None:
            from cardroom.agents.heuristic import HeuristicAgent

            agent = HeuristicAgent(seed=self.rng.randrange(1 << 30))
            self._heuristics[game] = agent
        return agent


_QUIET: dict[type, bool] = {}
"""Whether each class of state is a :class:`QuietPlayout`."""


def _quiet(world: State) -> bool:
    """Whether ``world`` offers a quiet playout. Asked once per class: ``isinstance`` against a
    runtime protocol costs about 5 µs, a tenth of a Baha rollout, and the answer is the class's."""
    kind = type(world)
    quiet = _QUIET.get(kind)
    if quiet is None:
        quiet = _QUIET[kind] = isinstance(world, QuietPlayout)
    return quiet


_NATIVE: dict[type, bool] = {}
"""Whether each class of state is a :class:`NativeSearch` (asked once per class, as ``_QUIET``)."""


def _native_search(state: State) -> bool:
    kind = type(state)
    native = _NATIVE.get(kind)
    if native is None:
        native = _NATIVE[kind] = isinstance(state, NativeSearch)
    return native


def _keys(world: State, legal: list[Action], actor: int, seat: int) -> dict[int, None]:
    """The edges out of this decision as the searcher observes them (ordered, unique)."""
    if actor == seat:
        return dict.fromkeys(legal)
    public = world.public_action
    return dict.fromkeys(public(a, seat) for a in legal)
