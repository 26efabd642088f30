// Python lists of ints made straight through the C API, for the batches' results
// (baebae_module.hpp's batch_games, baha_batch.hpp's batch_lists): one pass, no pybind11 casts.
//
// A batch makes thousands of new lists and dicts at once. ``CollectorPaused`` holds the cyclic
// collector off while they are made (lists and dicts of ints make no cycle, and its passes over
// the new objects cost a tenth of a random batch's time), then puts it back exactly as it was,
// also when making them fails.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <vector>

namespace cardroom {
namespace pylists {

namespace py = pybind11;

struct CollectorPaused {
    int was = PyGC_Disable();
    CollectorPaused() = default;
    CollectorPaused(const CollectorPaused&) = delete;
    CollectorPaused& operator=(const CollectorPaused&) = delete;
    ~CollectorPaused() {
        if (was) PyGC_Enable();
    }
};

// ``object``, a new reference from the C API, owned; a null one raises Python's error.
inline py::object owned(PyObject* object) {
    if (object == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(object);
}

inline py::object integer(int64_t value) { return owned(PyLong_FromLongLong(value)); }

inline py::object new_list(Py_ssize_t size) { return owned(PyList_New(size)); }

// ``list[at] = item``, into a list just made (its slot empty); the list takes ``item``'s reference.
inline void put(const py::object& list, Py_ssize_t at, py::object item) {
    PyList_SET_ITEM(list.ptr(), at, item.release().ptr());
}

// A new list of the ``size`` numbers from ``values``.
template <class T>
py::object int_list(const T* values, Py_ssize_t size) {
    py::object list = new_list(size);
    for (Py_ssize_t k = 0; k < size; ++k) put(list, k, integer(static_cast<int64_t>(values[k])));
    return list;
}

// A new list of ``rows`` lists of ``width`` numbers each, read from ``values`` on from ``at``
// (which moves past them): one game's rounds' or hands' points.
template <class T>
py::object int_rows(const T* values, size_t& at, int rows, int width) {
    py::object list = new_list(rows);
    for (int r = 0; r < rows; ++r, at += static_cast<size_t>(width)) put(list, r, int_list(values + at, width));
    return list;
}

// ``dict[key] = value``.
inline void set(const py::object& dict, const py::str& key, const py::object& value) {
    if (PyDict_SetItem(dict.ptr(), key.ptr(), value.ptr()) < 0) throw py::error_already_set();
}

// New dicts of the same few keys to numbers, one a game (a batch's extras): each a copy of one
// dict of those keys to 0, then the numbers that are not 0 set. A small dict's copy clones its
// table in one piece, about a third of a new dict's inserts, and most of the numbers are 0.
class IntDicts {
  public:
    // ``keys``: kept by the caller as long as this is (the batches' keys are made once).
    explicit IntDicts(std::initializer_list<const py::str*> keys) : keys_(keys), zeros_(owned(PyDict_New())) {
        for (const py::str* key : keys_) set(zeros_, *key, integer(0));
    }
    // {keys[0]: values[0], ...}: one value a key.
    py::object make(std::initializer_list<int64_t> values) const {
        if (values.size() != keys_.size()) throw std::logic_error("IntDicts::make: one value a key");
        py::object dict = owned(PyDict_Copy(zeros_.ptr()));
        const py::str* const* key = keys_.data();
        for (int64_t value : values) {
            if (value) set(dict, **key, integer(value));
            ++key;
        }
        return dict;
    }

  private:
    std::vector<const py::str*> keys_;
    py::object zeros_;
};

}  // namespace pylists
}  // namespace cardroom
