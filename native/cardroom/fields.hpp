// The codecs that cross a game's state fields between the native core and Python, every game's.
//
// A game's fields are declared once, in its table (src/cardroom/games/<game>/fields.py), and
// python -m cardroom.games.fieldgen writes from it native/cardroom/generated/<game>_fields.hpp:
// the members of the game's struct and a list X(name, getter, codec, value, values, doc) of every
// field the core holds. The binding expands that list into one getter a field (codec::get, on
// the C API: the observation encoder and the heuristic read them at every move) and into the load
// of a whole position from the Python reference state (codec::load, each attribute read by name:
// a determinized world, cold). A codec is a struct with
//     static PyObject* get(const T& value, const Context&)        // a new reference, or nullptr
//     static void load(T& value, py::handle python, const Context&)  // throws on a bad value
// (and, for what the core keeps beside the game, static void copy(T& to, const T& from), its
// clone). A game adds codecs of its own for a field kept in several members (they take the
// whole game as their value).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace cardroom {
namespace fields {

namespace py = pybind11;

// What a codec knows beside the value: the field's name (for a refusal), the table's size (one
// value a seat), and for a Code the native state and its class attribute of the Python values.
struct Context {
    const char* name;
    int n;
    PyObject* state;
    const char* values;
};

// A whole number: an int, an int64_t, a uint64_t mask.
struct Int {
    template <class T>
    static PyObject* get(const T& value, const Context&) {
        if constexpr (std::is_unsigned_v<T>)
            return PyLong_FromUnsignedLongLong(value);
        else
            return PyLong_FromLongLong(value);
    }
    template <class T>
    static void load(T& value, py::handle python, const Context&) {
        value = python.cast<T>();
    }
};

// A seat or None (-1 in C++).
struct Seat {
    static PyObject* get(int value, const Context&) {
        if (value < 0) Py_RETURN_NONE;
        return PyLong_FromLong(value);
    }
    static void load(int& value, py::handle python, const Context&) {
        value = python.is_none() ? -1 : python.cast<int>();
    }
};

// A bool.
struct Flag {
    static PyObject* get(bool value, const Context&) { return PyBool_FromLong(value); }
    static void load(bool& value, py::handle python, const Context&) { value = python.cast<bool>(); }
};

// One whole number a seat: an array of MAX_PLAYERS, the table's n of them a list.
struct PerSeat {
    template <class T, size_t N>
    static PyObject* get(const T (&values)[N], const Context& c) {
        PyObject* out = PyList_New(c.n);
        if (out == nullptr) return nullptr;
        // read at every move by the observation: small ints, made as the hand-written getters made them
        for (int i = 0; i < c.n; ++i) PyList_SET_ITEM(out, i, Int::get(values[i], c));
        return out;
    }
    template <class T, size_t N>
    static void load(T (&values)[N], py::handle python, const Context& c) {
        py::sequence items = py::reinterpret_borrow<py::sequence>(python);
        if (static_cast<int>(py::len(items)) != c.n || c.n > static_cast<int>(N))
            throw py::value_error(std::string(c.name) + ": wrong length");
        for (int i = 0; i < c.n; ++i) values[i] = items[i].cast<T>();
    }
};

// A new list of the numbers (nullptr with the error set when Python has no memory).
template <class T>
PyObject* int_list(const std::vector<T>& values) {
    PyObject* out = PyList_New(static_cast<Py_ssize_t>(values.size()));
    if (out == nullptr) return nullptr;
    for (size_t i = 0; i < values.size(); ++i) {
        PyObject* item = PyLong_FromLongLong(static_cast<long long>(values[i]));
        if (item == nullptr) {
            Py_DECREF(out);
            return nullptr;
        }
        PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), item);
    }
    return out;
}

// A list of whole numbers of any length: a std::vector.
struct Vector {
    template <class T>
    static PyObject* get(const std::vector<T>& values, const Context&) {
        return int_list(values);
    }
    template <class T>
    static void load(std::vector<T>& values, py::handle python, const Context&) {
        values = python.cast<std::vector<T>>();
    }
};

// An enum whose Python values the native state's class lists in code order (its PHASES): the
// getter gives the code, the load the code of the Python value.
struct Code {
    template <class T>
    static PyObject* get(const T& value, const Context&) {
        return PyLong_FromLong(static_cast<long>(value));
    }
    template <class T>
    static void load(T& value, py::handle python, const Context& c) {
        py::sequence values = py::type::handle_of(py::handle(c.state)).attr(c.values);
        for (size_t i = 0; i < py::len(values); ++i)
            if (py::object(values[i]).ptr() == python.ptr()) {
                value = static_cast<T>(i);
                return;
            }
        throw py::value_error(std::string(c.name) + ": " + py::repr(python).cast<std::string>() + " is none of " +
                              std::string(c.values));
    }
};

// A Python list the core keeps beside the game (the log): the getter gives the list itself, the
// load takes the list it is given, a clone copies it (its items shared).
struct List {
    static PyObject* get(const py::list& value, const Context&) { return Py_NewRef(value.ptr()); }
    static void load(py::list& value, py::handle python, const Context& c) {
        if (!PyList_Check(python.ptr())) throw py::type_error(std::string(c.name) + ": a list is needed");
        value = py::reinterpret_borrow<py::list>(python);
    }
    static void copy(py::list& to, const py::list& from) {
        to = py::reinterpret_steal<py::list>(PyList_GetSlice(from.ptr(), 0, PY_SSIZE_T_MAX));
        if (!to) throw py::error_already_set();
    }
};

// An index into such a list (where the hand's events begin).
struct Index {
    static PyObject* get(Py_ssize_t value, const Context&) { return PyLong_FromSsize_t(value); }
    static void load(Py_ssize_t& value, py::handle python, const Context&) { value = python.cast<Py_ssize_t>(); }
    static void copy(Py_ssize_t& to, Py_ssize_t from) { to = from; }
};

}  // namespace fields
}  // namespace cardroom
