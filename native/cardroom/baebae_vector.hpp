// BAEBAE's vector environment in C++: N games stepped in one call on the native engine
// (baebae.hpp running the deck's compiled program), observations written straight into the
// caller's float32 buffer, the GIL released while the games run.
//
// The observation is games/baebae/observation.py's, entry for entry and bit for bit (each
// count and scaled number is summed and divided in double as the Python does, then rounded
// to float as its struct packing rounds it); the rewards, episodes, seeds and bots are those
// of cardroom.rl's Python vector env (rl/vector.py), whose single-agent rows are
// CardroomGymEnv's own episodes, games passed over included (a game whose episode the bots end
// before the learner's first move). tests/native/test_vector_native.py steps both side by side.
//
// The step loop, the two modes, the auto-reset and the buffers are vector.hpp's (generic over
// the game's traits, VectorTraits here).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cardroom/baebae.hpp"
#include "cardroom/baebae_heuristic.hpp"
#include "cardroom/baebae_module.hpp"
#include "cardroom/chance.hpp"
#include "cardroom/vector.hpp"

namespace cardroom {
namespace baebae {

// Where each slice of the observation starts (observation.py's _Tables for the rules).
struct Layout {
    int designs, n, hand, discard, counts, top, drawn, pending_card, suit, declared, direction, phase, decision,
        purpose, may_stop, to_act, bits_end, hand_sizes, skips, stock, penalties, totals, round, size;
    int deck, hand_size;
    std::vector<double> per_copy;

    Layout(const Program& p, int players, int dealt) : designs(static_cast<int>(p.designs.size())), n(players) {
        int at = 0;
        auto add = [&at](int width) {
            int start = at;
            at += width;
            return start;
        };
        hand = add(designs), discard = add(designs);
        counts = at;
        top = add(designs), drawn = add(designs), pending_card = add(designs), suit = add(4), declared = add(1);
        direction = add(1), phase = add(3), decision = add(5), purpose = add(3), may_stop = add(1), to_act = add(n);
        bits_end = at;
        hand_sizes = add(n), skips = add(n), stock = add(1), penalties = add(n), totals = add(n), round = add(1);
        size = at;
        deck = p.cards();
        hand_size = dealt ? dealt : 1;
        for (int c : p.copies) per_copy.push_back(1.0 / c);
    }
};

// BaebaeObservation.encode: what ``seat`` may know of ``g``, into out[0:layout.size].
inline void encode(const Game& g, const Layout& at, int seat, float* out) {
    const Program& p = *g.prog;
    const int n = g.n;
    std::memset(out, 0, sizeof(float) * at.bits_end);
    // The counts per design, summed copy by copy in double as the Python sums them.
    double counts[2 * 256];
    std::vector<double> spill;
    double* sums = counts;
    if (at.designs > 256) spill.assign(2 * at.designs, 0.0), sums = spill.data();
    else std::fill(counts, counts + 2 * at.designs, 0.0);
    g.hands[seat].each([&](int pid) {
        int d = p.card_of[pid];
        sums[d] += at.per_copy[d];
    });
    for (int pid : g.discard) {
        int d = p.card_of[pid];
        sums[at.designs + d] += at.per_copy[d];
    }
    for (int k = 0; k < 2 * at.designs; ++k) out[at.hand + k] = static_cast<float>(sums[k]);
    out[at.top + p.card_of[g.discard.back()]] = 1.0f;
    if (g.drawn >= 0 && g.turn == seat) out[at.drawn + p.card_of[g.drawn]] = 1.0f;
    const Decision& d = g.pending;
    if (g.phase == DECIDE && d.kind >= 0 && d.seat == seat) {
        out[at.pending_card + p.card_of[d.card]] = 1.0f;
        out[at.decision + d.kind] = 1.0f;
        if (d.kind == K_SELECT) {
            out[at.purpose + d.purpose - P_DISCARD] = 1.0f;
            if (d.may_stop) out[at.may_stop] = 1.0f;
        }
    }
    out[at.suit + g.suit] = 1.0f;
    if (g.declared) out[at.declared] = 1.0f;
    if (g.direction == 1) out[at.direction] = 1.0f;
    if (g.phase != OVER) out[at.phase + g.phase] = 1.0f;
    if (g.turn >= 0) out[at.to_act + ((g.turn - seat) % n + n) % n] = 1.0f;
    const double size = at.hand_size;
    for (int k = 0; k < n; ++k) {
        int s = (seat + k) % n;
        out[at.hand_sizes + k] = static_cast<float>(g.hands[s].count() / size);
        out[at.skips + k] = static_cast<float>(static_cast<double>(g.skips[s]));
        out[at.penalties + k] = static_cast<float>(static_cast<double>(g.round_penalties[s]) / 10);
        out[at.totals + k] = static_cast<float>(static_cast<double>(g.totals[s]) / 100);
    }
    out[at.stock] = static_cast<float>(static_cast<double>(g.stock.size()) / at.deck);
    out[at.round] = static_cast<float>(static_cast<double>(g.round_no) / g.rules.rounds);
}

// The int8 mask of the legal actions of the seat to act (``legal``: g.legal()).
inline void write_mask(const std::vector<int>& legal, int size, int8_t* out) {
    std::memset(out, 0, static_cast<size_t>(size));
    for (int a : legal) out[a] = 1;
}

namespace vec {

// A bot of the batch: cardroom.agents' random agent (randrange over the legal actions) or
// the heuristic, on random.Random(its seed).
struct Bot {
    bool heuristic = false;
    Heuristic player{PyRandom::from_int(0)};

    int act(const Game& g) {
        if (heuristic) return player.act(g);
        std::vector<int> legal = g.legal();
        return legal[player.rng.randbelow(legal.size())];
    }
};

// BAEBAE's traits for the generic vector environment (vector.hpp).
struct VectorTraits {
    using Game = baebae::Game;
    using Rules = baebae::Rules;
    using Layout = baebae::Layout;
    using Bot = vec::Bot;
    using Sink = baebae::Sink;
    using Legal = std::vector<int>;  // the legal actions now, for the check and the mask
    static constexpr int MAX_PLAYERS = 64;

    static Layout layout(const Rules& rules) { return Layout(*rules.program, rules.players, rules.hand_size); }
    static Layout layout_of(const Game& g) { return Layout(*g.prog, g.n, g.rules.hand_size); }
    static int actions(const Rules& rules, const Layout& layout) {
        return Space{layout.designs, rules.players, 6}.size();
    }
    static void encode(const Game& g, const Layout& at, int seat, float* out) { baebae::encode(g, at, seat, out); }
    static void note_legal(const Game& g, Legal& legal) { legal = g.legal(); }
    static bool is_legal(const Game&, const Legal& legal, int64_t a) {
        return std::find(legal.begin(), legal.end(), a) != legal.end();
    }
    static void write_mask(const Game&, const Legal& legal, int size, int8_t* out) {
        baebae::write_mask(legal, size, out);
    }
    static std::vector<int> legal_actions(const Game&, const Legal& legal) { return legal; }
    static int64_t deal_no(const Game& g) { return g.round_no; }
    static bool over(const Game& g) { return g.phase == OVER; }
    static void apply(Game& g, Sink&, int action) { g.apply(action); }
    static void deal(Game& g, const Rules& rules, uint64_t seed, Sink& quiet) {
        g = Game{};
        g.setup(rules, std::to_string(seed));
        quiet.events = false;  // nothing read but the state
        g.sink = &quiet;
        g.begin_round();
    }
    // The game of a native state as a row's: the batch's rules, program and quiet sink.
    static void adopt(Game& into, const Game& g, const Rules& rules, Sink& quiet) {
        into = g;
        into.rules = rules;
        into.prog = rules.program.get();
        quiet.events = false;  // nothing read but the state
        into.sink = &quiet;
    }
};

}  // namespace vec
}  // namespace baebae

// -- the Python face -----------------------------------------------------------------------

namespace baebae_vector {

namespace py = pybind11;
using Batch = vec::Batch<baebae::vec::VectorTraits>;

// A native BAEBAE state holds ``g`` (its own sink kept; its log and history emptied).
inline void put_game(py::handle state, const baebae::Game& g) {
    baebae_py::Core& core = baebae_py::core_of(state);
    if (core.g.n != g.n) throw py::value_error("a state of another table size");
    baebae::Sink* sink = core.g.sink;
    const baebae::Program* prog = core.g.prog;
    auto rules = core.g.rules;
    core.g = g;
    core.g.sink = sink, core.g.prog = prog, core.g.rules = rules;
    core.log = py::list();
    core.history = py::list();
    core.round_start = 0;
    core.has_legal = false;
}

inline void register_baebae_vector(py::module_& m) {
    py::class_<Batch> cls(m, "BaebaeVector", "BAEBAE's vector environment (cardroom.games.baebae.vector drives it).");
    cls.def(py::init([](const baebae_py::PyRules& given, int num_envs, bool self_play, int seat,
                        const std::vector<bool>& heuristic, int64_t deals, int64_t max_steps, bool zero_sum) {
                const baebae::Rules& rules = given.rules;
                const int players = rules.players;
                if (players < 2 || players > 64 || static_cast<int>(heuristic.size()) != players || num_envs < 1 ||
                    seat < 0 || seat >= players || rules.hand_size < 1 || rules.rounds < 1)
                    throw py::value_error("BaebaeVector: bad players, seat, bots, rules or num_envs");
                vec::Config<baebae::vec::VectorTraits> config;
                config.rules = rules;
                config.self_play = self_play, config.seat = seat, config.heuristic = heuristic;
                config.deals = deals, config.max_steps = max_steps, config.zero_sum = zero_sum;
                return new Batch(config, num_envs, given.compiled);  // the compiled deck kept while the batch lives
            }),
            py::arg("rules"), py::arg("num_envs"), py::arg("self_play"), py::arg("seat"), py::arg("heuristic"),
            py::arg("deals"), py::arg("max_steps"), py::arg("zero_sum"));
    vec::bind_vector<baebae::vec::VectorTraits>(
        m, "baebae_observe", cls, [](py::handle state) -> const baebae::Game& { return baebae_py::core_of(state).g; },
        put_game);
}

}  // namespace baebae_vector
}  // namespace cardroom
