// Batches of whole BAEBAE games with no Python in the loop: the games `cardroom simulate` plays
// between random agents (agents/random_agent.py: random.Random(seed * 1000 + seat), then
// randrange(len(legal)) over the legal actions) and heuristic ones (agents/baebae_heuristic.py,
// baebae_heuristic.hpp, seeded alike), with what its results read of each game.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cardroom/baebae.hpp"
#include "cardroom/baebae_heuristic.hpp"
#include "cardroom/chance.hpp"

namespace cardroom {
namespace baebae {

// What a batch returns per game; ``points`` holds every round's penalties, game after game
// (``deals`` rounds for each game, ``players`` each).
struct Played {
    std::vector<int64_t> totals;  // games x players
    std::vector<int> winners;     // games x players: 1 for a seat in first place
    std::vector<uint8_t> stopped;  // stopped by the action guard
    std::vector<int64_t> actions;
    std::vector<int> deals, blocked, guarded;
    std::vector<int64_t> points;
};

// Counts what simulate's results read of the events: each round's penalties, blocked and
// guard-stopped rounds.
struct Counter : Sink {
    Counter() { events = false; }  // round_end alone
    std::vector<int64_t>* points;
    int deals = 0, blocked = 0, guarded = 0;
    void round_end(const Game&, int, const std::vector<int64_t>& penalties, bool was_blocked, bool guard) override {
        points->insert(points->end(), penalties.begin(), penalties.end());
        ++deals;
        blocked += was_blocked;
        guarded += guard;
    }
};

// One seat of simulate's agents: the heuristic, or the random agent (the same rng either way).
struct Seat {
    bool heuristic;
    Heuristic player;
    int act(const Game& g) { return heuristic ? player.act(g) : pick(g); }
    // The random agent's legal[randbelow(len(legal))], in one function (the heuristic stays out
    // of it: flattening that too would cost minutes of compiling).
    // The commonest case (a play from a one-word deck of single cards) on its own small path.
    int pick(const Game& g) {
        auto draw = [this](uint64_t size) { return player.rng.randbelow(size); };
        if (g.one_word_play()) return g.choose_one_word(draw);
        if (g.phase == DRAWN && g.turn >= 0) return g.choose_drawn(draw);
        return pick_any(g);
    }
    [[gnu::flatten, gnu::noinline]] int pick_any(const Game& g) {
        return g.choose([this](uint64_t size) { return player.rng.randbelow(size); });
    }
};

// A fast uniform policy for play-outs that need not be simulate's agents: one SplitMix64 stream
// per game (seeded from the game's seed), a choice by Lemire's multiply-shift.
struct FastSeat {
    uint64_t state;
    int act(const Game& g) {
        if (g.one_word_play()) return g.choose_one_word([this](uint64_t size) { return draw(size); });
        return act_any(g);
    }
    [[gnu::flatten, gnu::noinline]] int act_any(const Game& g) {
        return g.choose([this](uint64_t size) { return draw(size); });
    }
    uint64_t draw(uint64_t size) {
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        return static_cast<uint64_t>((static_cast<unsigned __int128>(z >> 32) * size) >> 32);
    }
};

// Games first_seed, first_seed + 1, ... between simulate's agents (``heuristic[s]``: seat s plays
// the heuristic, else the random agent), each to its end or max_actions. With ``exact`` false,
// every seat plays FastSeat's stream instead: the same deals and chance, other choices, without
// seeding a Mersenne Twister a seat and game. Never inlined: the benchmark counts its instructions
// by its name.
[[gnu::noinline]] inline void play_games(const Rules& rules, int64_t first_seed, int64_t games, int64_t max_actions,
                       const std::vector<bool>& heuristic, bool exact, Played& out) {
    int n = rules.players;
    out.totals.assign(static_cast<size_t>(games) * n, 0);
    out.winners.assign(static_cast<size_t>(games) * n, 0);
    out.stopped.assign(games, 0);
    out.actions.assign(games, 0);
    out.deals.assign(games, 0);
    out.blocked.assign(games, 0);
    out.guarded.assign(games, 0);
    out.points.clear();
    std::vector<Seat> seats;
    FastSeat fast{0};
    Game g;  // one game object for the batch, its vectors' room kept from game to game
    for (int64_t i = 0; i < games; ++i) {
        int64_t seed = first_seed + i;
        g.restart();
        g.setup(rules, std::to_string(seed));
        Counter sink;
        sink.points = &out.points;
        g.sink = &sink;
        g.begin_round();
        int64_t actions = 0;
        if (exact) {
            AgentRngs rngs(seed, rules.stream);
            for (int s = 0; s < n; ++s) {  // the seats are kept from game to game
                if (static_cast<int>(seats.size()) <= s) seats.push_back(Seat{heuristic[s], Heuristic{rngs(s)}});
                seats[s].heuristic = heuristic[s];
                if (heuristic[s]) {
                    seats[s].player = Heuristic{rngs(s)};
                } else {
                    seats[s].player.rng = rngs(s);  // all a random seat reads
                }
            }
            while (g.phase != OVER && actions < max_actions) {
                g.apply(seats[g.turn].act(g));
                ++actions;
            }
        } else {
            fast.state = static_cast<uint64_t>(seed) * 0xd1b54a32d192ed03ULL;  // every seat draws from it
            while (g.phase != OVER && actions < max_actions) {
                g.apply(fast.act(g));
                ++actions;
            }
        }
        size_t row = static_cast<size_t>(i) * n;
        int64_t best = g.totals[0];
        for (int s = 0; s < n; ++s) best = g.totals[s] < best ? g.totals[s] : best;
        for (int s = 0; s < n; ++s) {
            out.totals[row + s] = g.totals[s];
            out.winners[row + s] = g.phase == OVER && g.totals[s] == best;
        }
        out.stopped[i] = g.phase != OVER;
        out.actions[i] = actions;
        out.deals[i] = sink.deals;
        out.blocked[i] = sink.blocked;
        out.guarded[i] = sink.guarded;
    }
}

}  // namespace baebae
}  // namespace cardroom
