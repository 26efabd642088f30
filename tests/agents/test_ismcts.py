

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
