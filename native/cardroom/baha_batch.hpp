// Baha's batch of whole games as cardroom.games.baha.native.BatchGames keeps them, made here in
// one pass through the C API rather than by Python loops cutting the flat lists: per game its
// totals' row, its winner (-1 for a game the action guard stopped), its hands dealt, its
// actions, its moons, its extras' dict ({"moons": ...}, the spec's result_extras) and the points
// of its scored hands (one row a hand).
//
// The cyclic collector is paused while they are made (pylists.hpp).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "cardroom/pylists.hpp"

namespace cardroom {
namespace baha {

namespace py = pybind11;

// ``out`` is a batch's flat results (native/module.cpp's Played: totals games x n, winners,
// hands, actions, moons, deals a game, points n a scored hand, game after game), ``n`` the
// players. ``flat`` returns those flat lists themselves (the old layout, for the tests that
// hold the two layouts to the same contents).
template <class Played>
py::dict batch_lists(const Played& out, int n, bool flat = false) {
    if (flat) {
        py::dict result;
        result["totals"] = out.totals, result["winners"] = out.winners, result["hands"] = out.hands;
        result["actions"] = out.actions, result["moons"] = out.moons, result["deals"] = out.deals;
        result["points"] = out.points;
        return result;
    }
    using pylists::CollectorPaused, pylists::int_list, pylists::int_rows, pylists::IntDicts, pylists::new_list,
        pylists::put;
    CollectorPaused paused;
    // a new list of one number a game from ``values``
    auto column = [](const auto& values) { return int_list(values.data(), static_cast<Py_ssize_t>(values.size())); };
    static const py::str* moons_key = new py::str("moons");  // made once, never freed
    IntDicts extra_dicts{moons_key};
    auto games = static_cast<Py_ssize_t>(out.actions.size());
    py::object totals = new_list(games), extras = new_list(games), deal_points = new_list(games);
    size_t point = 0;  // the next scored hand's points in out.points
    for (Py_ssize_t i = 0; i < games; ++i) {
        size_t at = static_cast<size_t>(i) * static_cast<size_t>(n);
        put(totals, i, int_list(&out.totals[at], n));
        put(deal_points, i, int_rows(out.points.data(), point, out.deals[static_cast<size_t>(i)], n));
        put(extras, i, extra_dicts.make({out.moons[static_cast<size_t>(i)]}));
    }
    py::dict result;
    result["totals"] = totals, result["winners"] = column(out.winners), result["hands"] = column(out.hands);
    result["actions"] = column(out.actions), result["moons"] = column(out.moons);
    result["extras"] = extras, result["deal_points"] = deal_points;
    return result;
}

}  // namespace baha
}  // namespace cardroom
