

def test_the_default_exploration_is_the_games() -> None:
    from cardroom import games
    from cardroom.agents.ismcts import ISMCTSAgent
    from cardroom.games import make_rules

    for game, options in (("baha", {"target": 1}), ("baebae", {})):
        state = make_rules(game, options).new_game(4)
        bot = ISMCTSAgent(seed=1, iterations=20)
        while len(state.legal_actions()) < 2:
            state.apply(state.legal_actions()[0])
        bot.act(state, state.current_player)
        assert bot.c == games.get(game).exploration
        chosen = ISMCTSAgent(seed=1, iterations=20, exploration=1.5)
        chosen.act(state, state.current_player)
        assert chosen.c == 1.5
    assert games.get("baebae").exploration > games.get("baha").exploration


def test_a_rollout_stops_where_the_walk_down_the_tree_ended_the_deal() -> None:
    """When the walk down the tree plays a deal's last card, the roll-out has nothing left to
    play: the next deal is neither played out nor scored in that world (its returns are the
    deal's)."""
    import random

    from cardroom.agents.ismcts import ISMCTSAgent
    from cardroom.games import baha
    from cardroom.games.baha.state import BahaState

    for rollout in ("random", "heuristic"):
        world = BahaState.start(baha.Rules(players=4), 3)
        rng = random.Random(3)
        while world.deal_number == 1:
            world.apply(rng.choice(world.legal_actions()))
        scored = list(world.scores)
        ISMCTSAgent(seed=1, rollout=rollout)._rollout(world, 1)
        assert world.scores == scored and world.deal_number == 2
