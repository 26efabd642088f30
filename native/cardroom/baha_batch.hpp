// Baha's batch of whole games as cardroom.games.baha.native.BatchGames keeps them, made here in
// one pass through the C API rather than by Python loops cutting the flat lists: per game its
// totals' row, its winner (-1 for a game the action guard stopped), its hands dealt, its
// actions, its moons, its extras' dict ({"moons": ...}, the spec's result_extras) and the points
// of its scored hands (one row a hand).
//
// The cyclic collector is paused while they are made (lists of ints and dicts of ints make no
// cycle, and its passes over a batch's thousands of new lists cost time for nothing), then put
// back exactly as it was, also when making them fails.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>

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
    struct Paused {  // the collector as it was, back when the lists are made (or on an error)
        int was = PyGC_Disable();
        ~Paused() {
            if (was) PyGC_Enable();
        }
    } paused;
    auto made = [](PyObject* object) {
        if (object == nullptr) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(object);
    };
    auto number = [&](int64_t value) { return made(PyLong_FromLongLong(value)); };
    // a new list of ``size`` numbers from ``values``
    auto row = [&](const auto* values, Py_ssize_t size) {
        py::object list = made(PyList_New(size));
        for (Py_ssize_t k = 0; k < size; ++k)
            PyList_SET_ITEM(list.ptr(), k, number(static_cast<int64_t>(values[k])).release().ptr());
        return list;
    };
    // a new list of one number a game from ``values``
    auto column = [&](const auto& values) { return row(values.data(), static_cast<Py_ssize_t>(values.size())); };
    static const py::str* moons_key = new py::str("moons");  // made once, never freed
    auto games = static_cast<Py_ssize_t>(out.actions.size());
    py::object totals = made(PyList_New(games)), extras = made(PyList_New(games));
    py::object deal_points = made(PyList_New(games));
    size_t point = 0;  // the next scored hand's points in out.points
    for (Py_ssize_t i = 0; i < games; ++i) {
        size_t at = static_cast<size_t>(i) * static_cast<size_t>(n);
        PyList_SET_ITEM(totals.ptr(), i, row(&out.totals[at], n).release().ptr());
        int deals = out.deals[static_cast<size_t>(i)];
        py::object hands = made(PyList_New(deals));
        for (int d = 0; d < deals; ++d, point += static_cast<size_t>(n))
            PyList_SET_ITEM(hands.ptr(), d, row(&out.points[point], n).release().ptr());
        PyList_SET_ITEM(deal_points.ptr(), i, hands.release().ptr());
        py::object extra = made(PyDict_New());
        if (PyDict_SetItem(extra.ptr(), moons_key->ptr(), number(out.moons[static_cast<size_t>(i)]).ptr()) < 0)
            throw py::error_already_set();
        PyList_SET_ITEM(extras.ptr(), i, extra.release().ptr());
    }
    py::dict result;
    result["totals"] = totals, result["winners"] = column(out.winners), result["hands"] = column(out.hands);
    result["actions"] = column(out.actions), result["moons"] = column(out.moons);
    result["extras"] = extras, result["deal_points"] = deal_points;
    return result;
}

}  // namespace baha
}  // namespace cardroom
