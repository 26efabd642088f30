"""The chance stream in C++ against CPython's: BLAKE2b, the Mersenne Twister seeded from an
int, and every draw the games make, on many seeds."""

from __future__ import annotations

import hashlib
import random

import pytest
from native_support import needs_native

from cardroom import native
from cardroom.engine import chance_rng
from cardroom.games.baha.deal import shuffled_deck

pytestmark = needs_native

SEEDS = [0, 1, -1, 7, 2**31, 2**32 - 1, 2**32, 2**63 - 1, -(2**63), 2**64 + 5, 2**127 + 3, -(10**30), 3**90]


def test_blake2b_is_hashlibs_for_every_length_around_a_block():
    core = native.core()
    rng = random.Random(1)
    for size in (1, 8, 33, 64):
        for length in (0, 1, 63, 64, 127, 128, 129, 255, 256, 257, 1000):
            data = rng.randbytes(length)
            assert core.blake2b(data, size) == hashlib.blake2b(data, digest_size=size).digest(), (size, length)


@pytest.mark.parametrize("seed", SEEDS + list(range(-20, 200, 7)))
def test_the_twister_draws_what_cpython_draws(seed):
    ours, theirs = native.core().Random(seed), random.Random(seed)
    for k in range(65):
        assert ours.getrandbits(k) == theirs.getrandbits(k), k
    for n in (1, 2, 3, 5, 52, 104, 1000, 2**31 + 1, 2**40 + 3, 2**63 - 25):
        assert ours.randbelow(n) == theirs._randbelow(n), n  # what randrange, choice, shuffle use
    assert [ours.random() for _ in range(700)] == [theirs.random() for _ in range(700)]  # past a refill
    cards = list(range(52))
    theirs.shuffle(cards)
    assert ours.shuffle(list(range(52))) == cards
    for size, k in ((5, 5), (10, 3), (21, 21), (22, 6), (60, 7), (200, 10), (300, 40)):
        assert ours.sample(list(range(size)), k) == theirs.sample(range(size), k), (size, k)
    assert ours.choice(list(range(9))) == theirs.choice(range(9))


def test_chance_rng_and_the_baha_deal_match_the_engine_on_many_seeds():
    core = native.core()
    for seed in SEEDS + list(range(-300, 700)):
        keys = ("take", seed % 5, 3)
        ours, theirs = core.chance_rng(":".join(map(str, (seed, *keys)))), chance_rng(seed, *keys)
        assert ours.random() == theirs.random() and ours.randbelow(6) == theirs.randrange(6)
        for hand in (1, 2, 3, 40):
            assert core.baha_deck(f"{seed}:deal:{hand}") == shuffled_deck(seed, hand), (seed, hand)
