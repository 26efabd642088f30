// Baha in the native ISMCTS (ismcts.hpp): its traits, the seat's knowledge read from the
// seat's view of the hand's events, and the Python face of both (register_baha_ismcts).
//
// The knowledge is read with the GIL held, from the state's log, taking from each event only
// what the seat saw (visible_event's rule: another seat's pick, draw and take by count, a pass
// between others not at all, the deal by the size of each place); the search then runs with
// the GIL released, on worlds dealt by baha_determinize.hpp.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "baha.hpp"
#include "baha_determinize.hpp"
#include "baha_heuristic.hpp"
#include "ismcts.hpp"
#include "ismcts_options.hpp"
#include "ismcts_infer.hpp"
#include "rng.hpp"

namespace cardroom {
namespace baha {

struct SearchRoot {
    Game game;  // the position, its seed blanked (a world's next deal is never searched)
    Knowledge knowledge;
    // Inference (ismcts_infer.hpp): a pool of ``infer`` worlds per tree, weighed by the other
    // seats' observed plays under the heuristic with noise ``infer_epsilon``; 0: none.
    int infer = 0;
    double infer_epsilon = 0.25;
    bool infer_fresh = false;  // a new pool every iteration (else one per tree)
    infer::Observed observed;
};

struct SearchTraits {
    using World = Game;
    using Root = SearchRoot;
    struct Player {
        Heuristic heuristic;
        infer::Pool pool;  // the tree's weighted worlds (with root.infer)
    };
    static constexpr int MAX_ACTIONS = NUM_ACTIONS;

    static Player player(Rng& rng) { return Player{Heuristic{PyRandom::splitmix(rng.next())}, {}}; }
    static void world(const Root& root, Rng& rng, World& world) { determinize(root.game, root.knowledge, rng, world); }
    // With inference, the world is drawn from the tree's weighted pool (dealt on first use).
    static void world(const Root& root, Rng& rng, World& world, Player& player) {
        // nothing observed to weigh (the pass, a hand's first lead): the plain search's worlds
        if (root.infer <= 0 || root.observed.decisions.empty()) return SearchTraits::world(root, rng, world);
        if (!player.pool.built() || root.infer_fresh) {
            Heuristic judge{PyRandom::splitmix(0)};  // the model draws nothing (see heuristic_chance)
            player.pool.build(root.infer, root.infer_epsilon, root.observed, rng, judge,
                              [&root](Rng& r, Game& w) { determinize(root.game, root.knowledge, r, w); });
        }
        world = player.pool.draw(rng);
    }
    static int64_t deal(const World& w) { return w.hand_no; }
    static bool live(const World& w, int64_t deal) { return w.phase != OVER && w.hand_no == deal && w.turn >= 0; }
    static int actor(const World& w) { return w.turn; }

    static int legal(const World& w, int* out) {
        int base = w.phase == PASS ? PASS_BASE : 0;
        int size = 0;
        for (uint64_t mask = w.legal_mask(); mask; mask &= mask - 1) out[size++] = base + lowest(mask);
        return size;
    }

    // NativeBahaState.public_action: another seat's pass pick is hidden.
    static int key(const World& w, int action, int seat) {
        return action >= PASS_BASE && w.turn != seat ? ismcts::HIDDEN : action;
    }

    static void apply(World& w, int action) {
        Quiet quiet;
        w.apply(quiet, action);
    }

    // ISMCTSAgent._policy: the heuristic's move but for a share epsilon of random ones.
    static int policy(World& w, const int* legal, int size, Player& player, Rng& rng, const ismcts::Options& o) {
        if (o.heuristic && rng.uniform() >= o.epsilon) return player.heuristic.act(w);
        return legal[rng.below(static_cast<uint64_t>(size))];
    }

    static void rollout(World& w, int64_t deal, Player& player, Rng& rng, const ismcts::Options& o) {
        if (!o.heuristic) {  // the quiet random play-out, as the Python search takes it
            if (!live(w, deal)) return;
            Quiet quiet;
            auto uniform = [&rng]() { return rng.uniform(); };
            w.random_playout(quiet, uniform);
            return;
        }
        int legal_actions[NUM_ACTIONS];
        while (live(w, deal)) {
            int size = legal(w, legal_actions);
            apply(w, policy(w, legal_actions, size, player, rng, o));
        }
    }

    // BahaState.returns: each seat's total below the table's mean, in moons.
    static void returns(const World& w, double* out) {
        double mean = 0;
        for (int s = 0; s < w.n; ++s) mean += static_cast<double>(w.totals[s]);
        mean /= w.n;
        for (int s = 0; s < w.n; ++s) out[s] = (mean - static_cast<double>(w.totals[s])) / w.rules.points_per_hand;
    }
};

namespace search_py {

namespace py = pybind11;

inline int card_of(py::handle text) {
    std::string s = py::cast<std::string>(text);
    static const char* letters = "PRTO";
    const char* where = s.empty() ? nullptr : std::strchr(letters, s.back());
    if (where == nullptr || s.size() < 2) throw std::invalid_argument("not a Baha card: " + s);
    int value = std::stoi(s.substr(0, s.size() - 1));
    return static_cast<int>(where - letters) * VALUES + value - 1;
}

// determinize.knowledge for ``seat``, from the log of ``core`` (``.g``, ``.log``, ``.hand_start``).
template <class Core>
Knowledge read_knowledge(const Core& core, int seat) {
    const Game& g = core.g;
    if (seat < 0 || seat >= g.n) throw py::value_error("seat must be 0 to " + std::to_string(g.n - 1));
    KnowledgeBuilder builder(seat, g.n);
    py::list log = core.log;
    Py_ssize_t size = static_cast<Py_ssize_t>(py::len(log));
    for (Py_ssize_t i = core.hand_start; i < size; ++i) {
        py::dict e = log[i];
        std::string t = py::cast<std::string>(e["t"]);
        if (t == "play") {
            builder.play(py::cast<int>(e["p"]), card_of(e["card"]));
        } else if (t == "trick") {
            builder.trick(py::cast<int>(e["winner"]), static_cast<int>(py::len(e["leftover"])));
        } else if (t == "draw") {
            builder.draw(py::cast<int>(e["p"]));
        } else if (t == "take") {
            builder.take(py::cast<int>(e["p"]), static_cast<int>(py::len(e["cards"])));
        } else if (t == "pass_pick") {
            builder.pass_pick(py::cast<int>(e["p"]));
        } else if (t == "pass") {
            int from = py::cast<int>(e["from"]), to = py::cast<int>(e["to"]);
            py::list cards = e["cards"];
            uint64_t given = 0;
            if (from == seat)  // a pass the seat did not make is read by its count only
                for (py::handle c : cards) given |= 1ULL << card_of(c);
            builder.pass(from, to, given, static_cast<int>(py::len(cards)));
        } else if (t == "hand") {
            py::list hands = e["hands"];
            int sizes[MAX_PLAYERS] = {0};
            for (int s = 0; s < g.n; ++s) sizes[s] = static_cast<int>(py::len(hands[s]));
            builder.hand(sizes, static_cast<int>(py::len(e["leftover"])), static_cast<int>(py::len(e["draw_pile"])));
        }
    }
    return builder.finish(g.hands[seat] | g.face_down[seat], g.played);
}

// The other seats' plays of the hand as ``seat`` saw them (ismcts_infer.hpp), from the same log.
template <class Core>
infer::Observed read_observed(const Core& core, int seat) {
    infer::ObservedBuilder builder(core.g, seat);
    py::list log = core.log;
    Py_ssize_t size = static_cast<Py_ssize_t>(py::len(log));
    for (Py_ssize_t i = core.hand_start; i < size; ++i) {
        py::dict e = log[i];
        std::string t = py::cast<std::string>(e["t"]);
        if (t == "play")
            builder.play(py::cast<int>(e["p"]), card_of(e["card"]));
        else if (t == "trick")
            builder.trick(py::cast<int>(e["winner"]));
        else if (t == "draw")
            builder.draw(py::cast<int>(e["p"]));
        else if (t == "hand")
            builder.hand();
    }
    return builder.finish();
}

inline py::dict knowledge_dict(const Knowledge& k) {
    py::list known, slots, face_down, picks;
    for (int s = 0; s < k.n; ++s) {
        known.append(py::int_(k.known_in_hand[s]));
        py::list mine;
        for (int i = 0; i < k.slot_len[s]; ++i) mine.append(py::int_(k.slots[s][i]));
        slots.append(mine);
        face_down.append(py::int_(k.face_down[s]));
        picks.append(py::int_(k.picks_made[s]));
    }
    py::list unknown;
    for (int i = 0; i < k.unknown_len; ++i) unknown.append(py::int_(k.unknown[i]));
    py::dict out;
    out["seat"] = k.seat;
    out["unknown"] = unknown;
    out["known_in_hand"] = known;
    out["hand_slots"] = slots;
    out["leftover"] = k.leftover;
    out["draw_pile"] = k.draw_pile;
    out["face_down"] = face_down;
    out["picks_made"] = picks;
    return out;
}

}  // namespace search_py

// The Python face: knowledge and determinization (for tests and for a bot's own use) and the
// search. ``core_of(handle) -> Core&`` reaches a native state's core (module.cpp's).
template <class CoreOf>
void register_baha_ismcts(pybind11::module_& m, CoreOf core_of) {
    namespace py = pybind11;
    using search_py::knowledge_dict;
    using search_py::read_knowledge;
    m.def(
        "baha_knowledge", [core_of](py::handle state, int seat) { return knowledge_dict(read_knowledge(core_of(state), seat)); },
        py::arg("state"), py::arg("seat"));
    m.def(
        "baha_determinize",
        [core_of](py::handle world, py::handle state, int seat, uint64_t seed, py::list seen_log) {
            auto& from = core_of(state);
            auto& into = core_of(world);
            Knowledge k = read_knowledge(from, seat);
            Rng rng(seed);
            determinize(from.g, k, rng, into.g);
            uint64_t next_seed = rng.next() >> 1;  // the world's next deals: 63 bits, as Python draws
            into.g.seed = std::to_string(next_seed);
            into.log = std::move(seen_log);
            into.history = py::list();
            into.hand_start = from.hand_start;
            return next_seed;
        },
        py::arg("world"), py::arg("state"), py::arg("seat"), py::arg("seed"), py::arg("seen_log"));
    m.def(
        "baha_ismcts",
        [core_of](py::handle state, int seat, const ismcts::SearchOptions& options) {
            auto& core = core_of(state);
            if (core.g.turn < 0) throw py::value_error("nobody is to act: there is nothing to search");
            if (options.win || options.whole_game || options.sight)
                throw py::value_error("Baha's search backs up the points of the hand, seen from the seat: "
                                      "no win reward, whole-game horizon or sight");
            SearchRoot root{core.g, read_knowledge(core, seat)};
            ismcts::take_infer(root, options);
            if (options.infer > 0) root.observed = search_py::read_observed(core, seat);
            root.game.seed.clear();
            // the legal actions of the position searched, whatever ran meanwhile
            return ismcts::searched<SearchTraits>(root, seat, options,
                                                  [&root](int* legal) { return SearchTraits::legal(root.game, legal); });
        },
        py::arg("state"), py::arg("seat"), py::arg("options"));
    m.def(
        "baha_infer_chances",
        [core_of](py::handle state, int seat, py::handle world, double epsilon) {
            // Per other seat's play of the hand that the model judges, as ``seat`` saw it:
            // (seat, card, its chance on ``world``, a state with the same view for ``seat``).
            auto& core = core_of(state);
            const Game& w = core_of(world).g;
            if (seat < 0 || seat >= core.g.n) throw py::value_error("seat must be 0 to " + std::to_string(core.g.n - 1));
            if (!(epsilon > 0 && epsilon <= 1)) throw py::value_error("epsilon must be more than 0 and at most 1");
            if (w.n != core.g.n || w.played != core.g.played || w.hand_no != core.g.hand_no)
                throw py::value_error("the world is not of this position: its cards played differ");
            infer::Observed observed = search_py::read_observed(core, seat);
            Heuristic judge{PyRandom::splitmix(0)};
            std::vector<double> chances;
            infer::log_likelihood(observed.decisions, w.hands, epsilon, judge, &chances);
            py::list out;
            for (size_t i = 0; i < chances.size(); ++i)
                out.append(py::make_tuple(observed.decisions[i].seat, observed.decisions[i].card, chances[i]));
            return out;
        },
        py::arg("state"), py::arg("seat"), py::arg("world"), py::arg("epsilon"));
}

}  // namespace baha
}  // namespace cardroom
