// The options of a native search, one object for every game: the tree's (ismcts::Options) and
// the root's (the opponent model of ``infer``, the reward backed up and how far a roll-out
// plays), checked once, in words, where the Python face makes them
// (cardroom.native.face.search_options). A game's search takes the object whole
// (baha_ismcts, baebae_ismcts) and refuses what it does not play.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "ismcts.hpp"

namespace cardroom {
namespace ismcts {

struct SearchOptions {
    Options tree;
    int infer = 0;               // worlds per tree weighed by the other seats' plays (0: none)
    double infer_epsilon = 0.25;  // the opponent model's noise
    bool infer_fresh = false;    // a new pool each iteration (else one a search)
    bool win = false;            // back up each seat's share of the win (else its points)
    double win_temperature = 8.0;
    bool whole_game = false;     // roll out to the game's end (else the round's)
    int sight = 0;               // 0: the seat's knowledge; 1, 2: a benchmark's bound (BAEBAE)
};

inline void register_search_options(pybind11::module_& m) {
    namespace py = pybind11;
    py::class_<SearchOptions>(m, "SearchOptions",
                              "A native search's options, checked (cardroom.native.face.search_options makes them).")
        .def(py::init([](int64_t iterations, double seconds, double exploration, bool heuristic, double epsilon,
                         int max_depth, uint64_t seed, int threads, std::vector<double> root_prior, int infer,
                         double infer_epsilon, bool infer_fresh, bool win, double win_temperature, bool whole_game,
                         int sight) {
                 if (iterations < 1 || max_depth < 1 || threads < 1 || threads > 256)
                     throw py::value_error("iterations and max_depth must be from 1, threads from 1 to 256");
                 if (infer < 0 || infer > 1000000 || !(infer_epsilon > 0 && infer_epsilon <= 1))
                     throw py::value_error(
                         "infer must be from 0 (none) to 1000000 worlds, infer_epsilon more than 0 and at most 1");
                 if (!(win_temperature > 0) || !std::isfinite(win_temperature))
                     throw py::value_error("win_temperature must be a finite number more than 0");
                 if (sight < 0 || sight > 2) throw py::value_error("sight is 0 (the seat's knowledge), 1 or 2");
                 SearchOptions o;
                 o.tree.iterations = iterations;
                 o.tree.seconds = seconds;
                 o.tree.exploration = exploration;
                 o.tree.heuristic = heuristic;
                 o.tree.epsilon = epsilon;
                 o.tree.max_depth = max_depth;
                 o.tree.seed = seed;
                 o.tree.threads = threads;
                 o.tree.root_prior = std::move(root_prior);
                 o.infer = infer, o.infer_epsilon = infer_epsilon, o.infer_fresh = infer_fresh;
                 o.win = win, o.win_temperature = win_temperature, o.whole_game = whole_game, o.sight = sight;
                 return o;
             }),
             py::kw_only(), py::arg("iterations"), py::arg("seconds"), py::arg("exploration"), py::arg("heuristic"),
             py::arg("epsilon"), py::arg("max_depth"), py::arg("seed"), py::arg("threads"),
             py::arg("root_prior") = std::vector<double>(), py::arg("infer") = 0, py::arg("infer_epsilon") = 0.25,
             py::arg("infer_fresh") = false, py::arg("win") = false, py::arg("win_temperature") = 8.0,
             py::arg("whole_game") = false, py::arg("sight") = 0)
        .def_property_readonly("iterations", [](const SearchOptions& o) { return o.tree.iterations; })
        .def_property_readonly("threads", [](const SearchOptions& o) { return o.tree.threads; })
        .def_property_readonly("infer", [](const SearchOptions& o) { return o.infer; })
        .def_property_readonly("win", [](const SearchOptions& o) { return o.win; })
        .def_property_readonly("whole_game", [](const SearchOptions& o) { return o.whole_game; });
}

// The root's share of the options every game plays: the opponent model of ``infer``.
template <class Root>
void take_infer(Root& root, const SearchOptions& options) {
    root.infer = options.infer;
    root.infer_epsilon = options.infer_epsilon;
    root.infer_fresh = options.infer_fresh;
}

// The search of ``seat`` from ``root`` without the GIL (it touches no Python object), as every
// game's Python face returns it: (the best of the legal actions of the position searched, which
// ``legal(out)`` writes and counts, the iterations run, per root action (key, visits, the sum of
// the returns backed up through it)).
template <class Traits, class Legal>
pybind11::tuple searched(typename Traits::Root& root, int seat, const SearchOptions& options, Legal legal) {
    namespace py = pybind11;
    Result result;
    {
        py::gil_scoped_release unlocked;
        result = search<Traits>(root, seat, options.tree);
    }
    int actions[Traits::MAX_ACTIONS];
    int size = legal(actions);
    py::list visits;
    for (const RootStat& stat : result.root) visits.append(py::make_tuple(stat.key, stat.visits, stat.reward));
    return py::make_tuple(best_action(result, actions, size), result.iterations, visits);
}

}  // namespace ismcts
}  // namespace cardroom
