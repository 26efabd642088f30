"""Simulation: many games between agents, results per game, statistics a designer can act on."""

from cardroom.sim.stats import Estimate, mean_ci, wilson
from cardroom.sim.tournament import GameResult, Lineup, play_game, run_games

__all__ = ["GameResult", "Lineup", "play_game", "run_games", "Estimate", "mean_ci", "wilson"]
