// A game's results tables from native games, generic over the game's traits (as ismcts.hpp
// and vector.hpp are): whole games of simulate's agents played with no Python in the loop,
// every fact the results tables hold recorded as it happens (the game's Recorder, a sink of its
// events) into flat columns (the game's Rows), and the columns handed to Python as bytes with
// their element type, by name (cardroom.native.tables reads them as Arrow arrays).
//
// A game plugs in through a traits struct:
//
//   Rules, Game, Rows, Recorder, Seat   its rules, state, columns (``players`` and
//                                       ``columns(f)``: f(name, vector) for every column),
//                                       recorder (made from the rows and the rules; ``game``
//                                       its game's place in the batch), one of simulate's agents
//   begin(game, rules, seed, recorder)  game ``seed`` dealt, its events told to the recorder
//   over(game), apply(game, recorder, action)
//   before(recorder, actions)           the recorder told a decision is about to be taken
//   finish(game, recorder, actions, rows)  the game's own row (totals, winners, counts)
//   Bound, rules_of(bound)              the rules as Python hands them (the core's rules
//                                       object) and the game's Rules in it
//
// register_table_games<Traits>(m, name) binds the game's table batch.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "chance.hpp"

namespace cardroom {
namespace tables {

// Games of the given seeds between simulate's agents (``heuristic``: games x players flags,
// each seat seeded as `cardroom simulate` seeds it), each to its end or to ``max_actions``,
// every fact recorded into ``rows``.
template <class Traits>
void play_table_games(const typename Traits::Rules& rules, const std::vector<int64_t>& seeds,
                      const std::vector<bool>& heuristic, int64_t max_actions, typename Traits::Rows& rows) {
    using Seat = typename Traits::Seat;
    int n = rules.players;
    rows.players = n;
    std::vector<Seat> seats;
    for (size_t i = 0; i < seeds.size(); ++i) {
        int64_t seed = seeds[i];
        typename Traits::Game g;
        typename Traits::Recorder sink(rows, rules);
        sink.game = static_cast<int32_t>(i);
        Traits::begin(g, rules, seed, sink);
        seats.clear();
        AgentRngs rngs(seed, rules.stream);
        for (int s = 0; s < n; ++s)
            seats.push_back(Seat{heuristic[i * n + s], decltype(Seat::player){rngs(s)}});
        int64_t actions = 0;
        while (!Traits::over(g) && actions < max_actions) {
            Traits::before(sink, actions);
            Traits::apply(g, sink, seats[g.turn].act(g));
            ++actions;
        }
        Traits::finish(g, sink, actions, rows);
    }
}

// A column's element type as NumPy spells it (i1, u1, i4, i8...).
template <class T>
std::string kind_of() {
    return std::string(std::is_signed<T>::value ? "i" : "u") + std::to_string(sizeof(T));
}

// Every column of ``rows`` as (little-endian bytes, element type), by name.
template <class Rows>
pybind11::dict table_columns(Rows& rows) {
    pybind11::dict out;
    rows.columns([&out](const char* name, const auto& values) {
        using T = typename std::decay_t<decltype(values)>::value_type;
        out[name] = pybind11::make_tuple(
            pybind11::bytes(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)), kind_of<T>());
    });
    return out;
}

// The games played without the GIL (no Python object is touched while they run), their columns.
template <class Traits>
pybind11::dict table_games(const typename Traits::Rules& rules, const std::vector<int64_t>& seeds,
                           const std::vector<bool>& heuristic, int64_t max_actions) {
    if (heuristic.size() != seeds.size() * static_cast<size_t>(rules.players))
        throw pybind11::value_error("one policy a seat of every game");
    typename Traits::Rows rows;
    {
        pybind11::gil_scoped_release unlocked;
        play_table_games<Traits>(rules, seeds, heuristic, max_actions, rows);
    }
    return table_columns(rows);
}

// ``name``(rules, seeds, heuristic, max_actions): the game's table batch, every column of its
// Rows as (bytes, element type), by name.
template <class Traits>
void register_table_games(pybind11::module_& m, const char* name) {
    namespace py = pybind11;
    m.def(
        name,
        [](const typename Traits::Bound& rules, const std::vector<int64_t>& seeds, const std::vector<bool>& heuristic,
           int64_t max_actions) { return table_games<Traits>(Traits::rules_of(rules), seeds, heuristic, max_actions); },
        py::arg("rules"), py::arg("seeds"), py::arg("heuristic"), py::arg("max_actions"));
}

}  // namespace tables
}  // namespace cardroom
