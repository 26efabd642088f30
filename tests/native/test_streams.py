"""The two chance streams (docs/records.md, "Chance streams"): the split stream as specified
(known answers), the same numbers from the Python reference (engine.SplitMix) and the native
one (chance.hpp), both engines dealing and playing alike on either stream, and the bots' own
draws on the game's stream."""

from __future__ import annotations

import random

import pytest
from native_support import needs_native

from cardroom import engine, native
from cardroom.agents import make
from cardroom.engine import SPLITMIX, TWISTER, RulesError, SplitMix, chance_rng, key_hash, seeded_rng
from cardroom.games import baebae, baha, make_rules
from cardroom.games.baha.deal import shuffled_deck
from cardroom.record import recorded_options
from cardroom.sim.tournament import Lineup, run_games


def test_the_split_stream_gives_the_specified_numbers() -> None:
    # FNV-1a 64 and SplitMix64's published first words from the state 0 and 1234567
    assert key_hash("") == 0xCBF29CE484222325 and key_hash("a") == 0xAF63DC4C8601EC8C
    assert key_hash("foobar") == 0x85944171F73967E8
    assert [SplitMix(0).getrandbits(64) for _ in range(1)] == [0xE220A8397B1DCDAF]
    words = SplitMix(1234567)
    assert [words.getrandbits(64) for _ in range(3)] == [6457827717110365317, 3203168211198807973,
                                                         9817491932198370423]
    # bounded draws by rejection on the top bits, the shuffle's order, the float
    rng, again = SplitMix(99), SplitMix(99)
    drawn = rng.randrange(10)
    top = again.getrandbits(4)
    while top >= 10:
        top = again.getrandbits(4)
    assert drawn == top
    deck, order, rng, again = list(range(6)), list(range(6)), SplitMix(5), SplitMix(5)
    rng.shuffle(deck)
    for i in range(5, 0, -1):
        j = again.randrange(i + 1)
        order[i], order[j] = order[j], order[i]
    assert deck == order
    assert SplitMix(3).random() == (SplitMix(3).getrandbits(64) >> 11) / 2**53
    # an event's generator: the key's text hashed
    assert chance_rng(7, "round", 2, stream=SPLITMIX).getstate() == key_hash("7:round:2")
    assert type(chance_rng(7, "round", 2)) is random.Random  # the Twister unless a stream is named


def test_a_rules_stream_is_one_of_the_two() -> None:
    assert baha.Rules().stream == baebae.Rules().stream == SPLITMIX
    for bad in ("mt", "", None, 1):
        with pytest.raises(RulesError, match="stream must be one of splitmix, twister"):
            baha.Rules(stream=bad)  # type: ignore[arg-type]
        with pytest.raises(RulesError, match="stream must be one of splitmix, twister"):
            baebae.Rules(stream=bad)  # type: ignore[arg-type]
    assert make_rules("baha", {"stream": "twister"}).stream == TWISTER  # as text, from a front


def test_stored_options_without_a_stream_are_the_twisters() -> None:
    assert recorded_options("baha", {"players": 3})["stream"] == TWISTER
    assert recorded_options("baebae", {"players": 3, "stream": "splitmix"})["stream"] == SPLITMIX
    assert recorded_options("baebae", {})["chosen_target"] == "once"


def test_bots_draw_from_their_seed_on_the_games_stream() -> None:
    for game in ("baha", "baebae"):
        for stream in engine.STREAMS:
            state = make_rules(game, {"stream": stream}).new_game(3)
            bot = make("random", seed=3004)
            expected = seeded_rng(3004, stream)
            legal = state.legal_actions()
            assert bot.act(state, state.current_player) == legal[expected.randrange(len(legal))]
    assert type(seeded_rng(5, TWISTER)) is random.Random and type(seeded_rng(5, SPLITMIX)) is SplitMix


@needs_native
def test_the_native_stream_draws_what_the_python_one_draws() -> None:
    core = native.core()
    rng = random.Random(1)
    for _ in range(200):
        keys = (rng.randrange(-(2**70), 2**70), rng.choice(["round", "coin", "take", "deal"]),
                rng.randrange(50), rng.randrange(9))
        text = ":".join(map(str, keys))
        ours, theirs = chance_rng(*keys, stream=SPLITMIX), core.chance_rng(text, True)
        assert [ours.getrandbits(k) for k in (1, 5, 31, 32, 33, 63, 64)] == \
               [theirs.getrandbits(k) for k in (1, 5, 31, 32, 33, 63, 64)]
        assert ours.random() == theirs.random()
        n = rng.randrange(1, 120)
        assert ours.randrange(n) == theirs.randbelow(n)
        pool = list(range(rng.randrange(1, 80)))
        shuffled = list(pool)
        ours.shuffle(shuffled)
        assert shuffled == theirs.shuffle(pool)
        k = rng.randrange(len(pool) + 1)
        assert ours.sample(pool, k) == theirs.sample(pool, k)
        assert ours.choice(pool) == theirs.choice(pool)
        hand = rng.randrange(1, 30)
        assert shuffled_deck(keys[0], hand, SPLITMIX) == core.baha_deck(f"{keys[0]}:deal:{hand}", True)
        seat = rng.randrange(8)
        game_seed = keys[0] % 2**62 - 2**61  # simulate's seeds, negative ones too
        mine, yours = seeded_rng(game_seed * 1000 + seat, SPLITMIX), core.agent_rng(game_seed, seat, True)
        assert [mine.random() for _ in range(3)] == [yours.random() for _ in range(3)]
    # the Twister stays the Twister
    assert shuffled_deck(7, 1) == core.baha_deck("7:deal:1") != core.baha_deck("7:deal:1", True)


@needs_native
def test_the_native_split_streams_rejections_read_the_same_words() -> None:
    # The native bounded draw tries two words at once and the shuffle reads a word a round
    # (chance.hpp): every bound around a power of two (where up to half the words are rejected),
    # 1, the largest bounds, and every shuffle length, each followed by a raw word to check that
    # the state ends where Python's does.
    core = native.core()
    bounds = [1, 2, 3, 4, 5, 7, 8, 9, 52, 63, 64, 65, 2**31 + 1, 2**32, 2**62 + 1, 2**63, 2**63 + 1, 2**64 - 1]
    for start in range(40):
        ours, theirs = chance_rng(start, "bounds", stream=SPLITMIX), core.chance_rng(f"{start}:bounds", True)
        for n in bounds:
            assert [ours.randrange(n) for _ in range(12)] == [theirs.randbelow(n) for _ in range(12)]
            assert ours.getrandbits(64) == theirs.getrandbits(64)
        for size in range(70):
            pool = list(range(size))
            shuffled = list(pool)
            ours.shuffle(shuffled)
            assert shuffled == theirs.shuffle(pool)
            assert ours.getrandbits(64) == theirs.getrandbits(64)


@needs_native
@pytest.mark.parametrize("game", ["baha", "baebae"])
@pytest.mark.parametrize("stream", engine.STREAMS)
def test_both_engines_deal_and_play_alike_on_either_stream(game: str, stream: str) -> None:
    options = {"players": 3, "stream": stream, **({"target": 30} if game == "baha" else {"rounds": 2})}
    rules = make_rules(game, options)
    deals = set()
    for seed in range(6):
        native.use_engine("python")
        python = rules.new_game(seed)
        native.use_engine("native")
        fast = rules.new_game(seed)
        assert type(fast).__name__.startswith("Native")
        rng = random.Random(seed)
        while not python.is_over:
            action = rng.choice(python.legal_actions())
            assert fast.apply(action) == python.apply(action)
        assert fast.log == python.log
        deals.add(repr(python.log[0]))
    assert len(deals) == 6


@needs_native
@pytest.mark.parametrize("game", ["baha", "baebae"])
@pytest.mark.parametrize("stream", engine.STREAMS)
def test_native_batches_play_simulates_games_on_either_stream(game: str, stream: str) -> None:
    rules = make_rules(game, {"players": 4, "stream": stream, **({"target": 40} if game == "baha" else {})})
    lineup = Lineup.parse("random,heuristic,random,heuristic", 4)
    native.use_engine("python")
    python = run_games(rules, 8, 50, lineup, workers=1)
    native.use_engine("native")
    fast = run_games(rules, 8, 50, lineup, workers=1)
    assert [(r.totals, r.actions, r.deals) for r in fast] == [(r.totals, r.actions, r.deals) for r in python]
