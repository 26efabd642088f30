// Baha's vector environment in C++: its observation encoder, its bots and its traits for the
// generic vector environment (vector.hpp: the step loop, the modes, the rewards and episodes,
// the Python face), N games stepped in one call without the GIL.
//
// The observation is games/baha/observation.py's, entry for entry and bit for bit (the same
// float32 values: each scaled count is divided in double, then rounded to float, as Python's
// struct packing rounds it); tests/native/test_vector_native.py steps both side by side.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <string>
#include <vector>

#include "baha.hpp"
#include "baha_heuristic.hpp"
#include "chance.hpp"
#include "vector.hpp"

namespace cardroom {
namespace baha {

// Where each slice of the observation starts (observation.py's _Offsets for n players).
struct Layout {
    int n, hand, picks, passed, received, played, taken, trick, voids, pass_direction, phase, to_act, leader,
        led, bits, horns, totals, hand_sizes, tricks, leftover, draw_pile, size;

    explicit Layout(int players) : n(players) {
        int at = 0;
        auto add = [&at](int width) {
            int start = at;
            at += width;
            return start;
        };
        hand = add(DECK), picks = add(DECK), passed = add(DECK), received = add(DECK);
        played = add(DECK), taken = add(DECK), trick = add(n * DECK), voids = add(n * 4);
        pass_direction = add(3), phase = add(2), to_act = add(n), leader = add(n), led = add(4);
        bits = at;
        horns = add(n), totals = add(n), hand_sizes = add(n), tricks = add(1), leftover = add(1);
        draw_pile = add(1);
        size = at;
    }
};

inline int seat_from(int seat, int other, int n) { return ((other - seat) % n + n) % n; }

// BahaObservation.encode: what ``seat`` may know of ``g``, into out[0:layout.size].
inline void encode(const Game& g, const Layout& at, int seat, float* out) {
    const int n = g.n;
    std::memset(out, 0, sizeof(float) * at.bits);
    auto cards = [out](int start, uint64_t mask) {
        for (; mask; mask &= mask - 1) out[start + lowest(mask)] = 1.0f;
    };
    cards(at.hand, g.hands[seat]);
    cards(at.picks, g.picks[seat]);
    cards(at.passed, g.passed[seat]);
    cards(at.received, g.received[seat]);
    cards(at.played, g.played);
    cards(at.taken, g.taken[seat]);
    for (int i = 0; i < g.trick_len; ++i) out[at.trick + seat_from(seat, g.leader + i, n) * DECK + g.trick[i]] = 1.0f;
    for (int k = 0; k < n; ++k) {
        int voids = g.voids[(seat + k) % n];
        for (int c = 0; c < 4; ++c)
            if (voids >> c & 1) out[at.voids + 4 * k + c] = 1.0f;
    }
    out[at.pass_direction + (g.pass_offset == 1 ? 0 : g.pass_offset == -1 ? 1 : 2)] = 1.0f;
    if (g.phase != OVER) {
        out[at.phase + (g.phase == PLAY)] = 1.0f;
        out[at.leader + seat_from(seat, g.leader, n)] = 1.0f;
    }
    if (g.turn >= 0) out[at.to_act + seat_from(seat, g.turn, n)] = 1.0f;
    if (g.trick_len) out[at.led + colour_of(g.trick[0])] = 1.0f;
    const Rules& rules = g.rules;
    const double per_hand = rules.points_per_hand;
    const double top = static_cast<double>(rules.target + rules.points_per_hand);
    for (int k = 0; k < n; ++k) {
        int s = (seat + k) % n;
        out[at.horns + k] = static_cast<float>(rules.points(g.taken[s] & ~g.face_down[s]) / per_hand);
        out[at.totals + k] = static_cast<float>(static_cast<double>(g.totals[s]) / top);
        out[at.hand_sizes + k] = static_cast<float>(count(g.hands[s]) / static_cast<double>(rules.hand_size));
    }
    out[at.tricks] = static_cast<float>(g.tricks_done / static_cast<double>(DECK / n));
    out[at.leftover] = static_cast<float>(count(g.leftover) / 4.0);
    out[at.draw_pile] = static_cast<float>(g.pile_len / static_cast<double>(DECK));
}

// The int8 mask of the legal actions of the seat to act.
inline void write_mask(const Game& g, int8_t* out) {
    std::memset(out, 0, NUM_ACTIONS);
    int base = g.phase == PASS ? PASS_BASE : 0;
    for (uint64_t legal = g.legal_mask(); legal; legal &= legal - 1) out[base + lowest(legal)] = 1;
}

// A bot of the batch: cardroom.agents' random agent (randrange over the legal actions, in
// ascending order) or the heuristic, on its seed's generator (engine.seeded_rng, the rules' stream).
struct Bot {
    bool heuristic = false;
    Heuristic player{PyRandom::from_int(0)};

    int act(const Game& g) {
        if (heuristic) return player.act(g);
        uint64_t legal = g.legal_mask();
        int k = static_cast<int>(player.rng.randbelow(static_cast<uint64_t>(count(legal))));
        return (g.phase == PASS ? PASS_BASE : 0) + nth_bit(legal, k);
    }
};

// Baha's traits for the generic vector environment (vector.hpp).
struct VectorTraits {
    using Game = baha::Game;
    using Rules = baha::Rules;
    using Layout = baha::Layout;
    using Bot = baha::Bot;
    using Sink = Quiet;
    struct Legal {};  // read from the game's bitmask when needed: nothing kept
    static constexpr int MAX_PLAYERS = baha::MAX_PLAYERS;

    static Layout layout(const Rules& rules) { return Layout(rules.players); }
    static Layout layout_of(const Game& g) { return Layout(g.n); }
    static int actions(const Rules&, const Layout&) { return NUM_ACTIONS; }
    static void encode(const Game& g, const Layout& at, int seat, float* out) { baha::encode(g, at, seat, out); }
    static void note_legal(const Game&, Legal&) {}
    static bool is_legal(const Game& g, const Legal&, int64_t a) {
        return a >= 0 && a < NUM_ACTIONS && g.is_legal(static_cast<int>(a));
    }
    static void write_mask(const Game& g, const Legal&, int, int8_t* out) { baha::write_mask(g, out); }
    static std::vector<int> legal_actions(const Game& g, const Legal&) {
        std::vector<int> out;
        int base = g.phase == PASS ? PASS_BASE : 0;
        for (uint64_t legal = g.legal_mask(); legal; legal &= legal - 1) out.push_back(base + lowest(legal));
        return out;
    }
    static int64_t deal_no(const Game& g) { return g.hand_no; }
    static bool over(const Game& g) { return g.phase == OVER; }
    static void apply(Game& g, Quiet& quiet, int action) { g.apply(quiet, action); }
    // Every seat acts in every hand of Baha, so the bots never end an episode before the
    // learner's first move (the Python env's skipped games do not arise here).
    static void deal(Game& g, const Rules& rules, uint64_t seed, Quiet& quiet) {
        g = Game{};
        g.rules = rules;
        g.n = rules.players;
        g.seed = std::to_string(seed);
        g.choose_first_dealer();
        g.begin_hand(quiet, nullptr);
    }
    static void adopt(Game& into, const Game& g, const Rules& rules, Quiet&) {
        into = g;
        into.rules = rules;
    }
};

}  // namespace baha

// -- the Python face -----------------------------------------------------------------------

namespace baha_vector {

namespace py = pybind11;
using Batch = vec::Batch<baha::VectorTraits>;

// ``game_of`` finds the Game of a native Baha state (module.cpp's core type), for
// baha_observe and the rows loaded from a state; ``put_game`` makes a native state hold a
// row's game (its log and history empty).
template <class GameOf, class PutGame>
void register_baha_vector(py::module_& m, GameOf game_of, PutGame put_game) {
    py::class_<Batch> cls(m, "BahaVector", "Baha's vector environment (cardroom.games.baha.vector drives it).");
    cls.def(py::init([](const baha::Rules& rules, int num_envs, bool self_play, int seat,
                        const std::vector<bool>& heuristic, int64_t deals, int64_t max_steps, bool zero_sum) {
                vec::Config<baha::VectorTraits> config;
                config.rules = rules;
                const int players = rules.players;
                if (players < 2 || players > baha::MAX_PLAYERS || static_cast<int>(heuristic.size()) != players ||
                    num_envs < 1 || seat < 0 || seat >= players)
                    throw py::value_error("BahaVector: bad players, seat, bots or num_envs");
                config.self_play = self_play, config.seat = seat, config.heuristic = heuristic;
                config.deals = deals, config.max_steps = max_steps, config.zero_sum = zero_sum;
                return new Batch(config, num_envs);
            }),
            py::arg("rules"), py::arg("num_envs"), py::arg("self_play"), py::arg("seat"), py::arg("heuristic"),
            py::arg("deals"), py::arg("max_steps"), py::arg("zero_sum"));
    vec::bind_vector<baha::VectorTraits>(m, "baha_observe", cls, game_of, put_game);
}

}  // namespace baha_vector
}  // namespace cardroom
