"""The restricted player (restricted play): the heuristic less one card or one optional action,
the same in Python and in the native batch, and never playing what it is forbidden while the
rules allow anything else."""

from __future__ import annotations

import pytest

from cardroom import agents, native
from cardroom.agents import AgentError
from cardroom.analysis.restrict import play_restricted
from cardroom.games.baebae.rules import Rules
from cardroom.match import Match

needs_native = pytest.mark.skipif(native.batch_for("baebae") is None, reason="the native engine is not built")


@needs_native
@pytest.mark.parametrize(("card", "action"), [("10C", None), ("8H", None), ("QS", None), (None, "5D"), (None, "QC")])
def test_the_native_batch_plays_the_very_games_of_the_python_agent(card: str | None, action: str | None) -> None:
    rules = Rules()
    seeds, seats = list(range(16)), [i % 4 for i in range(16)]
    fast = play_restricted(rules, seeds, seats, card, action)
    python = play_restricted(rules, seeds, seats, card, action, engine="python")
    assert fast == python
    bit = sum(fast.avoided) + sum(fast.forced) if card else sum(fast.declined)
    assert bit > 0  # the restriction came up in these games


@needs_native
def test_unrestricted_is_the_heuristic_in_every_seat() -> None:
    from cardroom.games.baebae.native import heuristic_games

    rules = Rules()
    free = play_restricted(rules, list(range(10)), [-1] * 10, None, None)
    assert free.totals == heuristic_games(rules, 10, 0).totals


def _plays(
    card: str, action: str | None = None, games: int = 8, watch: str = "QC", played: str = "10C"
) -> tuple[int, int, int, int]:
    """Over a few games with seat 1 restricted: ``played``'s plays by seat 1, the
    plays it was forced into, ``watch``'s optional action carried out by seat 1, and the
    restricted player's declines."""
    rules = Rules()
    plays = carried = forced = declined = 0
    for seed in range(games):
        state = rules.new_game(seed)
        restricted = agents.make("restricted", seed=seed * 1000 + 1, card=card, action=action)
        seated = [agents.make("heuristic", seed=seed * 1000 + s) if s != 1 else restricted for s in range(4)]
        Match(state, seated).run()
        plays += sum(1 for e in state.log if e["t"] == "play" and e["p"] == 1 and e["card"] == played)
        carried += sum(1 for e in state.log if e["t"] == "effect" and e["op"] == "optional" and e["p"] == 1
                       and e["card"] == watch and e["carried_out"])
        forced += restricted.forced
        declined += restricted.declined
    return plays, forced, carried, declined


def test_the_forbidden_card_is_played_only_when_the_rules_leave_nothing_else() -> None:
    plays, forced, _, _ = _plays("10C", games=60, played="10C")
    assert plays == forced  # every play of it was forced
    free, _, _, _ = _plays("KC", games=60, played="10C")
    assert free > plays  # unrestricted, seat 1 plays 10C more in the same games


def test_the_forbidden_optional_action_is_never_carried_out() -> None:
    _, _, free, _ = _plays("KC")
    assert free > 0  # unrestricted, seat 1 carries out QC's action in these games
    _, _, carried, declined = _plays("KC", action="QC")
    assert declined > 0 and carried == 0


def test_bad_restrictions_are_refused_in_words() -> None:
    with pytest.raises(AgentError, match="card=KEY"):
        agents.make("restricted")
    state = Rules().new_game(0)
    agent = agents.make("restricted", seed=0, card="ZZ")
    with pytest.raises(AgentError, match="no card of this deck"):
        agent.act(state, state.current_player)
    from cardroom.games import baha

    hearts = baha.Rules().new_game(0)
    with pytest.raises(AgentError, match="baha has no card designs"):
        agents.make("restricted", seed=0, card="13P").act(hearts, hearts.current_player)
