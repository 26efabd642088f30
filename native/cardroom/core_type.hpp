// A game's core as a plain CPython type (BahaCore, BaebaeCore), generic over the game's traits
// (as ismcts.hpp, vector.hpp and tables.hpp are), and a game's batch of whole games.
//
// The per-action calls (legal_actions, apply, clone, current_player, is_over, scores...) are
// what the web, the terminal and every bot make at each move, so they are written against the
// C API as METH_NOARGS / METH_O methods and getters, with none of pybind11's dispatch on the
// way: the game's native state (cardroom.games.<game>.native) subclasses the type and adds the
// rest of the protocol in Python. The fields of the Python face (rules, seed, n, origin, the
// game's own objects, the cached reference) live here too, so a clone is made in one call.
//
// A game plugs in through a traits struct:
//
//   Core                 the game's core: ``g`` (its Game: ``n``, ``turn``), ``log`` and
//                        ``history`` (py::list), and
//                          started()            whether it may play (false: not yet started)
//                          over()               whether the game has ended
//                          legal_actions()      the legal actions, a new list
//                          is_legal(action)     whether an int is a legal action now (noexcept
//                                               where it cannot throw: then checked unguarded)
//                          play(action)         a legal action taken, its events logged
//                          copy_to(other)       everything copied into a new core (a clone)
//   name, doc            the type's dotted name and doc
//   needed, not_started  the refusals of another object, of a core not started
//   extra                the members of the game's own objects beside rules, seed and origin
//                        (a std::array of {name, T_OBJECT or T_OBJECT_EX, doc}), in the order
//                        of Object::objects after the first three
//
// CoreType<Traits>::add(m, attribute, methods, fields, protocol) makes the type and adds it to
// the module; the field getters are made by CARDROOM_CORE_GETTER from the game's table.
//
// A batch (register_batch<Traits>(m, name)) plugs in through:
//
//   Bound, rules_of(bound)          the rules as Python hands them and the game's Rules in them
//   Played                          what a batch of games returns, flat
//   play(rules, first_seed, games, max_actions, exact, heuristic, out)   the games, played
//   lists(out, players, flat)       the batch's dict for Python
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <structmember.h>

#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fields.hpp"

namespace cardroom {
namespace core_type {

namespace py = pybind11;

// An object the Python face keeps on the core, as a member of the type.
struct Member {
    const char* name;
    int type;  // T_OBJECT (may be None) or T_OBJECT_EX
    const char* doc;
};

// The getters of the State protocol's names, by the game's fields.
struct Protocol {
    getter current_player;  // the seat to act
    getter scores;          // the running totals
    getter deal_number;     // the hand or round being played
    const char* deal_doc;   // its doc
};

template <class Traits>
struct Object {
    PyObject_HEAD
    typename Traits::Core* core;
    PyObject* ref;  // the Python reference position, cached until the next action
    int n;
    PyObject* objects[3 + std::size(Traits::extra)];  // rules, seed, origin, then the game's own
};

// Runs ``body`` and turns a C++ exception into a Python one (nothing may unwind through C).
template <class Body>
PyObject* guarded(Body&& body) {
    try {
        return body();
    } catch (py::error_already_set& error) {
        error.restore();
    } catch (const py::builtin_exception& error) {
        error.set_error();
    } catch (const std::exception& error) {
        PyErr_SetString(PyExc_RuntimeError, error.what());
    }
    return nullptr;
}

// The action taken noted in the core's history as (seat, action): ``action`` is the Python int.
inline void note(const py::list& history, int turn, PyObject* action) {
    PyObject* seat = PyLong_FromLong(turn);
    PyObject* entry = seat == nullptr ? nullptr : PyTuple_Pack(2, seat, action);
    Py_XDECREF(seat);
    if (entry == nullptr || PyList_Append(history.ptr(), entry) < 0) {
        Py_XDECREF(entry);
        throw py::error_already_set();
    }
    Py_DECREF(entry);
}

template <class Traits>
struct CoreType {
    using Core = typename Traits::Core;
    using Self = Object<Traits>;

    static inline PyTypeObject* type = nullptr;

    static Self* self_of(PyObject* object) { return reinterpret_cast<Self*>(object); }

    // The core of a native state of this game (a TypeError for anything else, a ValueError for
    // a core not started).
    static Core& core_of(py::handle state) {
        if (type == nullptr || !PyObject_TypeCheck(state.ptr(), type)) throw py::type_error(Traits::needed);
        Core& core = *self_of(state.ptr())->core;
        if (!core.started()) throw py::value_error(Traits::not_started);
        return core;
    }

    // The cached reference position dropped: the position changed.
    static void changed(py::handle state) { Py_CLEAR(self_of(state.ptr())->ref); }

    // The core if it has been started, else nullptr with the ValueError set.
    static Core* started(PyObject* object) {
        Core* core = self_of(object)->core;
        if (!core->started()) {
            PyErr_SetString(PyExc_ValueError, Traits::not_started);
            return nullptr;
        }
        return core;
    }

    static PyObject* make(PyTypeObject* of, PyObject*, PyObject*) {
        auto* self = reinterpret_cast<Self*>(of->tp_alloc(of, 0));
        if (self == nullptr) return nullptr;
        PyObject* made = guarded([&]() -> PyObject* {
            self->core = new Core();
            return reinterpret_cast<PyObject*>(self);
        });
        if (made == nullptr) Py_DECREF(self);
        return made;
    }

    static void dealloc(PyObject* object) {
        Self* self = self_of(object);
        delete self->core;
        for (PyObject* field : self->objects) Py_XDECREF(field);
        Py_XDECREF(self->ref);
        PyTypeObject* of = Py_TYPE(object);
        of->tp_free(object);
        Py_DECREF(of);  // a heap type's instances hold it
    }

    static PyObject* legal_actions(PyObject* object, PyObject*) {
        Core* core = started(object);
        if (core == nullptr) return nullptr;
        return guarded([&]() { return core->legal_actions(); });
    }

    // apply(action): a legal int is taken here; anything else goes to the Python face's
    // _apply_other, which takes an int-like action or refuses in the reference's words.
    static PyObject* apply(PyObject* object, PyObject* action) {
        Self* self = self_of(object);
        Core* core = started(object);
        if (core == nullptr) return nullptr;
        if (PyLong_CheckExact(action)) {
            int overflow = 0;
            long value = PyLong_AsLongAndOverflow(action, &overflow);
            if (!overflow && value >= INT32_MIN && value <= INT32_MAX) {
                auto take = [&]() -> PyObject* {
                    note(core->history, core->g.turn, action);
                    Py_CLEAR(self->ref);
                    PyObject* log = core->log.ptr();
                    Py_ssize_t mark = PyList_GET_SIZE(log);
                    core->play(static_cast<int>(value));
                    return PyList_GetSlice(log, mark, PY_SSIZE_T_MAX);
                };
                if constexpr (noexcept(core->is_legal(0))) {  // the check needs no guard
                    if (core->is_legal(static_cast<int>(value))) return guarded(take);
                } else {
                    PyObject* events = guarded([&]() -> PyObject* {
                        if (!core->is_legal(static_cast<int>(value))) Py_RETURN_NONE;
                        return take();
                    });
                    if (events != Py_None) return events;  // the events, or nullptr on an error
                    Py_DECREF(events);
                }
            }
        }
        static PyObject* other = PyUnicode_InternFromString("_apply_other");
        return PyObject_CallMethodOneArg(object, other, action);  // one argument, even a tuple
    }

    static PyObject* clone(PyObject* object, PyObject*) {
        Self* self = self_of(object);
        PyTypeObject* of = Py_TYPE(object);
        Self* other = self_of(of->tp_new(of, nullptr, nullptr));
        if (other == nullptr) return nullptr;
        PyObject* made = guarded([&]() -> PyObject* {
            self->core->copy_to(*other->core);
            return reinterpret_cast<PyObject*>(other);
        });
        if (made == nullptr) {
            Py_DECREF(other);
            return nullptr;
        }
        for (size_t i = 0; i < std::size(self->objects); ++i) {
            Py_XINCREF(self->objects[i]);
            other->objects[i] = self->objects[i];
        }
        other->n = self->n;
        return made;
    }

    static PyObject* is_over(PyObject* object, void*) { return PyBool_FromLong(self_of(object)->core->over()); }

    // The type made from the game's methods beside the three above, its fields' getters (one an
    // entry of the game's table, CARDROOM_CORE_GETSET) and the protocol's getters, and added to
    // the module as ``attribute``. The tables live as long as the type (never freed).
    static void add(py::module_& m, const char* attribute, std::vector<PyMethodDef> more,
                    std::vector<PyGetSetDef> fields, Protocol protocol) {
        auto* methods = new std::vector<PyMethodDef>{
            {"legal_actions", legal_actions, METH_NOARGS, "The actions the seat to act may take now, ascending."},
            {"apply", apply, METH_O, "Take an action for the seat to act; returns the events it caused."},
            {"clone", clone, METH_NOARGS, "An independent copy (the core's fields copied, events shared)."},
        };
        methods->insert(methods->end(), more.begin(), more.end());
        methods->push_back({nullptr, nullptr, 0, nullptr});
        auto* getset = new std::vector<PyGetSetDef>{
            {"current_player", protocol.current_player, nullptr, "The seat to act, None when nobody is.", nullptr},
            {"is_over", is_over, nullptr, "Whether the game has ended.", nullptr},
            {"scores", protocol.scores, nullptr, "The running totals, by seat.", nullptr},
            {"deal_number", protocol.deal_number, nullptr, protocol.deal_doc, nullptr},
        };
        getset->insert(getset->end(), fields.begin(), fields.end());
        getset->push_back({nullptr, nullptr, nullptr, nullptr, nullptr});
        auto* members = new std::vector<PyMemberDef>();
        const Member common[] = {
            {"rules", T_OBJECT_EX, "The Rules the game is played by."},
            {"seed", T_OBJECT_EX, "Where the game's chance comes from."},
            {"origin", T_OBJECT, "How a hand-made game began, or None."},
        };
        Py_ssize_t at = offsetof(Self, objects);
        for (const Member& made : common) members->push_back({made.name, made.type, at, 0, made.doc}), at += sizeof(PyObject*);
        for (const Member& made : Traits::extra) members->push_back({made.name, made.type, at, 0, made.doc}), at += sizeof(PyObject*);
        members->push_back({"_ref", T_OBJECT, offsetof(Self, ref), 0, "The cached Python reference position, or None."});
        members->push_back({"n", T_INT, offsetof(Self, n), 0, "The number of players."});
        members->push_back({nullptr, 0, 0, 0, nullptr});
        auto* slots = new PyType_Slot[]{
            {Py_tp_doc, const_cast<char*>(Traits::doc)},
            {Py_tp_new, reinterpret_cast<void*>(make)},
            {Py_tp_dealloc, reinterpret_cast<void*>(dealloc)},
            {Py_tp_methods, methods->data()},
            {Py_tp_getset, getset->data()},
            {Py_tp_members, members->data()},
            {0, nullptr},
        };
        auto* spec = new PyType_Spec{Traits::name, sizeof(Self), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots};
        type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(spec));
        if (type == nullptr) throw py::error_already_set();
        m.add_object(attribute, reinterpret_cast<PyObject*>(type));
    }
};

// Games seed, seed + 1, ... of simulate's agents (``heuristic[s]``: seat s plays the heuristic,
// else the random agent), each to its end or to max_actions; with ``exact`` false, the fast
// uniform stream instead. ``flat``: the flat lists themselves, where the game makes them.
template <class Traits>
void register_batch(py::module_& m, const char* name) {
    m.def(
        name,
        [](const typename Traits::Bound& bound, int64_t first_seed, int64_t games, int64_t max_actions, bool exact,
           const std::vector<bool>& heuristic, bool flat) {
            const auto& rules = Traits::rules_of(bound);
            const int players = rules.players;
            if (static_cast<int>(heuristic.size()) != players) throw py::value_error("one policy a seat");
            typename Traits::Played out;
            {
                py::gil_scoped_release unlocked;  // no Python object is touched while the games run
                Traits::play(rules, first_seed, games, max_actions, exact, heuristic, out);
            }
            return Traits::lists(out, players, flat);
        },
        py::arg("rules"), py::arg("first_seed"), py::arg("games"), py::arg("max_actions"), py::arg("exact"),
        py::arg("heuristic"), py::arg("flat") = false);
}

}  // namespace core_type
}  // namespace cardroom

// One getter a field of a game's table (its X-macro's row), by its codec: get_hands, get_turn...
// ``Traits`` the game's core traits, ``codecs`` the namespace of the game's own codecs.
#define CARDROOM_CORE_GETTER(Traits, codecs, name, getter, codec, value, values, doc)                   \
    inline PyObject* get_##name(PyObject* object, void*) {                                               \
        const auto& c = *cardroom::core_type::CoreType<Traits>::self_of(object)->core;                   \
        const auto& g = c.g;                                                                             \
        return codecs::codec::get(value, cardroom::fields::Context{#name, g.n, object, values});        \
    }

// The getter's entry in the type's table.
#define CARDROOM_CORE_GETSET(name, getter, codec, value, values, doc) {getter, get_##name, nullptr, doc, nullptr},
