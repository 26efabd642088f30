"""The learned agent: weights as data (safetensors), played with NumPy alone, refused in words
when malformed, blind to other seats' cards; and the training that makes them (a smoke run)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardroom import games
from cardroom.agents import AgentError, make
from cardroom.agents.learned import FORMAT, load_network, shipped, shipped_path
from cardroom.agents.training import Targets, generate, save_network
from cardroom.games import baebae, baha
from cardroom.sim import Lineup, run_games

ROOT = Path(__file__).resolve().parents[2]
TRAINING_ONLY = ["torch", "stable_baselines3", "sb3_contrib", "gymnasium"]
"""What the play install lacks: blocked in the subprocesses below."""


def random_weights(path: Path, game: str = "baha", rules: Any = None, hidden: int = 8, seed: int = 0) -> Path:
    """A network of random weights for ``game`` (a well-formed file; its play is legal, not good)."""
    rules = rules or games.make_rules(game, {})
    encoder = games.get(game).load("observation")
    size, actions = encoder.size(rules), games.get(game).info.num_actions(rules)
    rng = np.random.default_rng(seed)

    def m(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32)

    tensors = {"layers.0.weight": m(hidden, size), "layers.0.bias": m(hidden),
               "policy.weight": m(actions, hidden), "policy.bias": m(actions),
               "value.weight": m(1, hidden), "value.bias": m(1)}
    save_network(path, tensors, game, rules, {"what": "random, for tests"})
    return path


# -- the shipped weights -------------------------------------------------------------------


def test_a_network_is_shipped_for_each_game() -> None:
    assert set(shipped()) >= {"baha", "baebae"}
    for name in ("baha", "baebae"):
        network = load_network(shipped_path(name))
        assert network.game == name and network.players == 4
        assert shipped_path(name).stat().st_size < 2 * 2**20  # small: a package data file
        assert json.loads(network.metadata["trained"])["decisions"] > 0


def test_unknown_shipped_weights_are_refused_listing_the_shipped() -> None:
    with pytest.raises(AgentError, match="no shipped weights 'nosuch'; the shipped weights are .*baebae.*baha"):
        make("learned", weights="nosuch")
    with pytest.raises(AgentError, match="not both"):
        make("learned", weights="baha", path="x.safetensors")


@pytest.mark.parametrize(("rules", "spec"), [(baha.Rules(players=4, target=1), "learned"),
                                             (baebae.Rules(players=4, rounds=1), "learned:sample=true")])
def test_the_shipped_weights_play_whole_games_legally(rules: Any, spec: str) -> None:
    results = run_games(rules, 2, 5, Lineup.parse(f"{spec},heuristic,heuristic,heuristic", 4))
    assert all(not r.guard_stopped and r.winners for r in results)


def test_another_table_size_is_refused_in_words() -> None:
    state = baha.Rules(players=3).new_game(1)
    with pytest.raises(AgentError, match="trained for baha with 4 players, not baha with 3"):
        make("learned", weights="baha").act(state, state.current_player)  # type: ignore[arg-type]
    with pytest.raises(AgentError, match="trained for baha with 4 players, not baha with 3"):
        make("learned").act(state, state.current_player)  # type: ignore[arg-type]


# -- malformed weights ----------------------------------------------------------------------


def _rewritten(tmp_path: Path, change: Any) -> Path:
    """A copy of a good file with its tensors or metadata changed by ``change(tensors, metadata)``."""
    from safetensors import safe_open
    from safetensors.numpy import save_file

    good = random_weights(tmp_path / "good.safetensors")
    with safe_open(str(good), framework="numpy") as f:
        metadata = dict(f.metadata())
        tensors = {k: f.get_tensor(k) for k in f.keys()}  # noqa: SIM118
    change(tensors, metadata)
    bad = tmp_path / "bad.safetensors"
    save_file(tensors, str(bad), metadata=metadata)
    return bad


@pytest.mark.parametrize(("change", "words"), [
    (lambda t, m: m.update(format="other-1"), "its metadata's format is 'other-1', not 'cardroom-learned-1'"),
    (lambda t, m: m.update(game="chess"), "its game 'chess' is none of"),
    (lambda t, m: m.update(players="four"), "its metadata lacks whole numbers players"),
    (lambda t, m: t.pop("value.bias"), "tensors missing: value.bias"),
    (lambda t, m: t.update(extra=np.zeros(2, np.float32)), "unexpected: extra"),
    (lambda t, m: t.update({"policy.weight": np.zeros((3, 8), np.float32)}), "policy has shapes"),
    (lambda t, m: t.update({"layers.0.weight": t["layers.0.weight"].astype(np.float64)}), "float64, not float32"),
    (lambda t, m: t["layers.0.bias"].__setitem__(0, np.nan), "not finite"),
])
def test_a_malformed_weights_file_is_refused_in_words(tmp_path: Path, change: Any, words: str) -> None:
    bad = _rewritten(tmp_path, change)
    with pytest.raises(AgentError, match=r"'bad.safetensors' is not a Cardroom network: .*") as err:
        make("learned", path=str(bad))
    assert words in str(err.value)


def test_a_file_that_is_not_safetensors_is_refused_in_words(tmp_path: Path) -> None:
    for content in (b"", b"\x00" * 3, b"PK\x03\x04 a zip, perhaps a pickle", b"\xff" * 8 + b"{}"):
        junk = tmp_path / "junk.safetensors"
        junk.write_bytes(content)
        with pytest.raises(AgentError, match="is not a safetensors weights file"):
            make("learned", path=str(junk))
    with pytest.raises(AgentError, match="no weights file"):
        make("learned", path=str(tmp_path / "missing.safetensors"))
    with pytest.raises(AgentError, match="is not a file"):
        make("learned", path=str(tmp_path))


def test_weights_of_another_game_are_refused(tmp_path: Path) -> None:
    theirs = random_weights(tmp_path / "baebae.safetensors", "baebae", baebae.Rules(players=4))
    state = baha.Rules(players=4).new_game(2)
    with pytest.raises(AgentError, match="trained for baebae with 4 players, not baha with 4"):
        make("learned", path=str(theirs)).act(state, state.current_player)  # type: ignore[arg-type]


# -- blind: the network reads only its seat's observation ---------------------------------------


def _look_alike(state: Any, seat: int) -> Any:
    import random

    return next(
        d for k in range(50)
        if any((d := state.determinize(seat, random.Random(k))).hands[p] != state.hands[p]
               for p in range(state.n) if p != seat)
    )


@pytest.mark.parametrize("game", ["baha", "baebae"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_learned_agent_is_blind_to_hidden_cards(game: str, seed: int) -> None:
    import random

    rules = games.make_rules(game, {"players": 4})
    state = rules.new_game(seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(3, 30)):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    assert seat is not None
    other = _look_alike(state, seat)
    assert other.view(seat) == state.view(seat)
    first, second = make("learned", seed=3, sample=True), make("learned", seed=3, sample=True)
    assert first.act(state, seat) == second.act(other, seat)
    assert first.last_value == second.last_value  # type: ignore[attr-defined]


# -- without torch: simulate, play and the web table -------------------------------------------


BLOCKER = "import sys\nsys.modules.update(dict.fromkeys({blocked!r}))\n"


def _python(tmp_path: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    hook = tmp_path / "hook"
    hook.mkdir(exist_ok=True)
    (hook / "sitecustomize.py").write_text(BLOCKER.format(blocked=TRAINING_ONLY))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hook), os.environ.get("PYTHONPATH", "")]),
           "COLUMNS": "120", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=180,
                          cwd=tmp_path, input=stdin)


def _cardroom(tmp_path: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return _python(tmp_path, "-m", "cardroom.cli.main", *args, stdin=stdin)


def test_the_blocker_blocks_torch(tmp_path: Path) -> None:
    result = _python(tmp_path, "-c", "import torch")
    assert result.returncode == 1 and "ModuleNotFoundError: import of torch halted" in result.stderr


def test_simulate_and_play_with_the_learned_agent_without_torch(tmp_path: Path) -> None:
    simulated = _cardroom(tmp_path, "simulate", "baha", "--duplicate", "--games", "1", "--rule", "target=1",
                          "--agents", "learned,heuristic,heuristic,heuristic", "--json", "--seed", "3")
    assert simulated.returncode == 0, simulated.stderr
    assert "learned" in [a["agent"] for a in json.loads(simulated.stdout)["agents"]]
    baebae_run = _cardroom(tmp_path, "simulate", "baebae", "--games", "1", "--rule", "rounds=1",
                           "--agents", "learned,heuristic,learned,heuristic")
    assert baebae_run.returncode == 0, baebae_run.stderr
    played = _cardroom(tmp_path, "play", "baha", "--seed", "4", "--bots", "learned", "--record", "game.json",
                       stdin="1\n" * 3 + "quit\n")
    assert "Traceback" not in played.stderr, played.stderr
    record = json.loads((tmp_path / "game.json").read_text())
    assert [s["agent"] for s in record["seats"]] == ["human", "learned", "learned", "learned"]
    assert len(record["actions"]) >= 3  # the bots played their picks beside the person's
    refused = _cardroom(tmp_path, "simulate", "baha", "--games", "1", "--agents", f"learned:path={tmp_path}")
    assert refused.returncode == 2 and "is not a file" in refused.stderr and "Traceback" not in refused.stderr


WEB_GAME = """
import sys
sys.path.insert(0, {support!r})
from pathlib import Path
from web_support import LiveServer, play_out

live = LiveServer(Path("data"))
try:
    table = live.create(game="baha", players=4, rules={{"target": 1}}, name="Ada",
                        seats=["human", "learned", "learned:weights=baha", "learned:sample=true"])
    ada = live.client(table["id"], table["token"])
    play_out([ada])
    assert ada.last["table"]["status"] == "over", ada.last
    print([s["bot"] for s in ada.last["table"]["seats"]])
    for spec, words in (("learned:path=/etc/passwd", "the web table plays only the weights shipped"),
                        ("learned:weights=../x", "no shipped weights")):
        r = live.http.post("/api/tables", json={{"game": "baha", "players": 4,
                                                  "seats": ["human", spec, "random", "random"]}})
        assert r.status_code == 400 and words in r.json()["detail"], r.text
    print("refused")
    assert "torch" not in sys.modules or sys.modules["torch"] is None
finally:
    live.stop()
"""


def test_the_web_table_seats_the_learned_agent_without_torch(tmp_path: Path) -> None:
    result = _python(tmp_path, "-c", textwrap.dedent(WEB_GAME.format(support=str(ROOT / "tests" / "web"))))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "'learned', 'learned:weights=baha', 'learned:sample=True'" in result.stdout and "refused" in result.stdout


# -- the training, in seconds ------------------------------------------------------------------


def test_a_short_training_run_makes_weights_that_play(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from cardroom.agents.training import train

    rules = baha.Rules(players=4, target=1)
    data = generate("baha", rules, 2, 30, seed=5, log=lambda line: None)
    assert len(data.outcomes) > 50 and data.observations.shape[1] == 568
    assert np.allclose(data.visits.sum(axis=1), 1) and not (data.visits * ~data.masks).any()
    hand_points = sorted(set(np.round(data.outcomes, 6).tolist()))
    assert len(hand_points) > 1  # each row's outcome is its seat's returns() at the hand's end
    data.save(tmp_path / "part.npz")
    again = Targets.load([tmp_path / "part.npz"])
    tensors, curve = train(again, hidden=(16,), epochs=2, log=lambda line: None)
    assert len(curve.epochs) == 2 and all(0 <= e["agreement"] <= 1 for e in curve.epochs)
    out = tmp_path / "baha.safetensors"
    save_network(out, tensors, "baha", rules, {"games": 2})
    metadata = load_network(out).metadata
    assert metadata["format"] == FORMAT and json.loads(metadata["rules"])["target"] == 1
    results = run_games(rules, 1, 9, Lineup.parse(f"learned:path={out},heuristic,heuristic,heuristic", 4))
    assert results[0].winners


def test_cardroom_train_writes_weights_and_a_curve(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from typer.testing import CliRunner

    from cardroom.cli.main import app

    out = tmp_path / "mine.safetensors"
    result = CliRunner().invoke(app, ["train", "baha", "--games", "1", "--iterations", "20", "--epochs", "1",
                                      "--hidden", "8", "--data", str(tmp_path / "data"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert load_network(out).game == "baha"
    assert json.loads(out.with_suffix(".curve.json").read_text())["epochs"][0]["epoch"] == 1
    bad = CliRunner().invoke(app, ["train", "baha", "--hidden", "8,x"])
    assert bad.exit_code == 2 and "give whole numbers separated by commas" in bad.output


def test_the_targets_keep_the_roots_action_values() -> None:
    rules = baha.Rules(players=4, target=1)
    data = generate("baha", rules, 1, 40, seed=7, log=lambda line: None)
    tried = ~np.isnan(data.action_values)
    assert (tried == (data.visits > 0)).all()  # a mean for each move the search tried, no other
    assert (np.abs(data.action_values[tried]) <= np.abs(data.outcomes).max() + 1).all()


def test_old_decision_files_load_without_action_values(tmp_path: Path) -> None:
    data = generate("baha", baha.Rules(players=4, target=1), 1, 10, seed=7, log=lambda line: None)
    fields = {k: v for k, v in data.__dict__.items() if k != "action_values"}
    np.savez_compressed(tmp_path / "old.npz", **fields)
    loaded = Targets.load([tmp_path / "old.npz"])
    assert loaded.action_values.shape == data.visits.shape and np.isnan(loaded.action_values).all()
    # such rows keep the visit target when action values are mixed in
    from cardroom.agents.training import policy_targets

    assert np.allclose(policy_targets(loaded, 1.0, q_mix=0.5), loaded.visits, atol=1e-6)


def test_the_policy_target_mixes_visits_and_action_values() -> None:
    from cardroom.agents.training import policy_targets

    nan = np.nan
    data = Targets(
        observations=np.zeros((2, 1), np.float32), masks=np.ones((2, 3), bool),
        visits=np.array([[0.5, 0.3, 0.2], [0.6, 0.4, 0.0]], np.float32),
        search_values=np.zeros(2, np.float32), outcomes=np.zeros(2, np.float32),
        action_values=np.array([[-0.5, -0.1, -0.3], [-0.2, 0.4, nan]], np.float32),
        games=np.zeros(2, np.int32),
    )
    assert np.allclose(policy_targets(data, 1.0), data.visits)
    cubed = data.visits ** 3 / (data.visits ** 3).sum(axis=1, keepdims=True)
    assert np.allclose(policy_targets(data, 3.0), cubed)
    # a cold softmax of the action values is the best tried move; an untried move gets nothing
    cold = policy_targets(data, 1.0, q_mix=1.0, q_temperature=1e-3)
    assert np.allclose(cold, [[0, 1, 0], [0, 1, 0]])
    half = policy_targets(data, 1.0, q_mix=0.5, q_temperature=1e-3)
    assert np.allclose(half, 0.5 * data.visits + 0.5 * cold) and np.allclose(half.sum(axis=1), 1)
    with pytest.raises(ValueError, match="q_mix must be 0 to 1"):
        policy_targets(data, 1.0, q_mix=2.0)


def test_the_target_games_can_be_played_by_other_agents() -> None:
    """With ``play`` the agents choose the moves (DAgger: their states, the search's labels): the
    decisions kept are those of the game the line-up plays, seat by seat as it turns."""
    from cardroom.agents.learned import observe

    rules = baha.Rules(players=4, target=1)
    lineup = Lineup.parse("heuristic,random,heuristic,random", 4)
    data = generate("baha", rules, 2, 10, seed=11, first_game=3, play=lineup.make, log=lambda line: None)
    expected = []
    for g in (3, 4):
        state = rules.new_game(11 + g)
        agents = [lineup.make((s - g) % 4, (11 + g) * 1000 + s) for s in range(4)]
        while not state.is_over:
            seat = state.current_player
            if len(state.legal_actions()) > 1:
                expected.append(observe(state, seat))
            state.apply(agents[seat].act(state, seat))
    assert np.array_equal(data.observations, np.array(expected))
    searched = generate("baha", rules, 2, 10, seed=11, first_game=3, log=lambda line: None)
    assert searched.observations.shape != data.observations.shape or (searched.observations != data.observations).any()


def test_the_labelling_search_can_take_the_network_as_prior() -> None:
    """With ``prior`` (expert iteration) the labelling search follows the network at its root:
    at one iteration a decision its root visits only the move the network likes best."""
    network = load_network(shipped_path("baha"))
    rules = baha.Rules(players=4, target=1)
    data = generate("baha", rules, 1, 1, seed=2, prior=network, log=lambda line: None)
    for row in range(len(data.outcomes)):
        legal = np.flatnonzero(data.masks[row])
        liked = legal[int(np.argmax(network.probabilities(data.observations[row], legal.tolist())))]
        assert data.visits[row, liked] == 1
    assert len(data.outcomes) > 20


def test_cardroom_train_plays_and_labels_as_asked(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from typer.testing import CliRunner

    from cardroom.cli.main import app

    out = tmp_path / "mine.safetensors"
    base = ["train", "baha", "--games", "1", "--iterations", "10", "--epochs", "1", "--hidden", "8",
            "--data", str(tmp_path / "data"), "--out", str(out)]
    result = CliRunner().invoke(app, [*base, "--play", "learned,heuristic,heuristic,heuristic",
                                      "--prior", str(shipped_path("baha")), "--q-mix", "0.5"])
    assert result.exit_code == 0, result.output
    trained = json.loads(load_network(out).metadata["trained"])
    assert trained["q_mix"] == 0.5 and "-it10-" in trained["parts"][0]  # its own file: played otherwise
    bad = CliRunner().invoke(app, [*base, "--play", "learned,nosuch"])
    assert bad.exit_code == 2 and "--agents needs one agent for every seat" in bad.output
    other = CliRunner().invoke(app, [*base, "--prior", str(shipped_path("baebae"))])
    assert other.exit_code == 2 and "its network plays baebae" in other.output


# -- the search with the network (ismcts:policy=learned) -----------------------------------------


def _decision(seed: int, game: str = "baha") -> Any:
    import random

    rules = games.make_rules(game, {"players": 4})
    state = rules.new_game(seed)
    rng = random.Random(seed)
    while True:
        for _ in range(rng.randrange(4, 20)):
            state.apply(rng.choice(state.legal_actions()))
        if len(state.legal_actions()) > 2:
            return state


@pytest.mark.parametrize("engine", ["native", "python"])
@pytest.mark.parametrize("game", ["baha", "baebae"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_network_is_the_searchs_prior(seed: int, game: str, engine: str) -> None:
    """With one iteration the search expands the move the network likes best, and plays it (the
    native search at its root, the Python search at each of the bot's own nodes)."""
    state = _decision(seed, game)
    seat = state.current_player
    searched = make("ismcts", seed=1, iterations=1, policy="learned", engine=engine).act(state, seat)
    assert searched == make("learned").act(state, seat)
    # without the prior, one iteration expands a move at random: another move on some seed
    assert any(make("ismcts", seed=k, iterations=1, engine=engine).act(state, seat) != searched
               for k in range(12))


@pytest.mark.parametrize("spec", ["ismcts:iterations=30:policy=learned",
                                  "ismcts:iterations=30:policy=learned:value=1",
                                  "ismcts:iterations=20:policy=learned:value=0.5"])
@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_the_search_with_the_network_is_blind_and_legal(spec: str, game: str) -> None:
    from cardroom.agents import parse_spec

    state = _decision(5, game)
    seat = state.current_player
    other = _look_alike(state, seat)
    name, options = parse_spec(spec)
    first = make(name, seed=3, **options).act(state, seat)
    assert first == make(name, seed=3, **options).act(other, seat)
    assert first in state.legal_actions()


@pytest.mark.parametrize(("options", "words"), [
    ({"policy": "mine"}, "policy must be learned"),
    ({"value": 0.5}, "give policy=learned"),
    ({"policy": "learned", "value": 2}, "value must be a number from 0 to 1"),
    ({"policy": "learned", "value": 0.5, "engine": "native"}, "runs in the Python search"),
    ({"policy": "learned", "value": 1, "threads": 2}, "on one thread"),
])
def test_the_search_options_of_the_network_are_checked(options: dict[str, Any], words: str) -> None:
    with pytest.raises(AgentError, match=words):
        make("ismcts", **options)


def test_the_win_reward_labels_the_targets_and_their_outcomes() -> None:
    """``cardroom train --search reward=win``: the labelling search backs up the share of the win,
    and each decision's outcome is that share at its round's end (a quarter below 1 at most, at
    least minus a quarter with four seats), not the points."""
    from cardroom.agents.training import search_options
    options = search_options("reward=win:exploration=2")
    assert options == {"reward": "win", "exploration": 2}
    rules = baebae.Rules(players=4, rounds=2)
    won = generate("baebae", rules, 1, 20, seed=3, options=options, log=lambda line: None)
    points = generate("baebae", rules, 1, 20, seed=3, log=lambda line: None)
    assert won.outcomes.min() >= -0.25 - 1e-6 and won.outcomes.max() <= 0.75 + 1e-6
    assert points.outcomes.min() < -0.25 or points.outcomes.max() > 0.75
    tried = ~np.isnan(won.action_values)
    assert (won.action_values[tried] >= -0.25 - 1e-6).all() and (won.action_values[tried] <= 0.75 + 1e-6).all()
    for bad, words in (("reward=wins", "reward must be one of points, win"),
                       ("iterations=3", "takes only exploration, reward, win_temperature")):
        with pytest.raises(AgentError, match=words):
            search_options(bad)


def test_train_refuses_the_win_reward_for_a_game_without_it() -> None:
    """``cardroom train baha --search reward=win`` stops in words before any game is played: Baha
    plays to a target, not over a fixed number of rounds, so it has no share of the win to back up."""
    from typer.testing import CliRunner

    from cardroom.cli.main import app

    result = CliRunner().invoke(app, ["train", "baha", "--games", "1", "--iterations", "5",
                                      "--search", "reward=win"])
    assert result.exit_code == 2
    assert "reward=win is built for games scored by totals" in " ".join(result.output.split())
