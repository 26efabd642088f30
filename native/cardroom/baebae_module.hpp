// BAEBAE's native core as Python sees it: a compiled program (from games/baebae/program.py,
// a pybind11 class), and the game core, BaebaeCore, a plain CPython type that
// cardroom.games.baebae.native.NativeBaebaeState subclasses and drives through the State
// protocol, its events written as the Python engine's dicts (key for key, in the same order),
// and its fields read and written for the reference position.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <structmember.h>

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cardroom/baebae.hpp"
#include "cardroom/baebae_batch.hpp"
#include "cardroom/pylists.hpp"
#include "cardroom/rules_py.hpp"

namespace cardroom {
namespace baebae_py {

namespace py = pybind11;
using namespace cardroom::baebae;

// A compiled deck and the texts its events name.
struct Compiled {
    std::shared_ptr<Program> program = std::make_shared<Program>();
    std::vector<py::str> card;   // per physical card
    std::vector<py::str> label;  // per choose option label
};

inline py::object none_if(int value) { return value < 0 ? py::object(py::none()) : py::object(py::int_(value)); }

inline const py::str& suit_text(int s) {
    static const py::str* suits = new py::str[4]{py::str("C"), py::str("D"), py::str("H"), py::str("S")};  // never freed
    return suits[s];
}

// A set of cards as the Python int the reference uses.
inline py::int_ int_of(const Bits& bits) {
    if (bits.w.size() == 1) return py::int_(static_cast<unsigned long long>(bits.w[0]));
    std::string bytes(bits.w.size() * 8, '\0');
    for (size_t i = 0; i < bits.w.size(); ++i)
        for (int b = 0; b < 8; ++b) bytes[i * 8 + b] = static_cast<char>((bits.w[i] >> (8 * b)) & 0xff);
    return py::reinterpret_steal<py::int_>(
        py::module_::import("builtins").attr("int").attr("from_bytes")(py::bytes(bytes), "little").release());
}

inline Bits bits_of(const py::int_& value, int words) {
    std::string bytes = py::cast<std::string>(value.attr("to_bytes")(words * 8, "little"));
    Bits out(words);
    for (int i = 0; i < words; ++i)
        for (int b = 0; b < 8; ++b) out.w[i] |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[i * 8 + b])) << (8 * b);
    return out;
}

struct Core;

// An event's key or word as one interned Python string, made once at its place in the code:
// the sink writes thousands of events a game.
#define WORD(word)                                                                        \
    ([]() -> const py::str& {                                                             \
        static const py::str* made = new py::str(py::reinterpret_steal<py::str>(           \
            PyUnicode_InternFromString(#word)));  /* never freed: outlives the module's users */ \
        return *made;                                                                     \
    }())

// One event: a dict of the keys and values given (each value a new reference, taken over),
// its keys in the order given, as the Python engine writes them.
struct Item {
    PyObject* key;
    PyObject* value;
};

inline PyObject* event_of(std::initializer_list<Item> items) {
    PyObject* e = _PyDict_NewPresized(static_cast<Py_ssize_t>(items.size()));
    bool failed = e == nullptr;
    for (const Item& item : items) {
        if (!failed && (item.value == nullptr || PyDict_SetItem(e, item.key, item.value) < 0)) failed = true;
        Py_XDECREF(item.value);
    }
    if (failed) {
        Py_XDECREF(e);
        throw py::error_already_set();
    }
    return e;
}

inline PyObject* new_int(long value) { return PyLong_FromLong(value); }
inline PyObject* new_bool(bool value) { return PyBool_FromLong(value); }
inline PyObject* new_ref(const py::handle& value) { return Py_NewRef(value.ptr()); }
#define KEY(word) WORD(word).ptr()

// The sink that writes the Python engine's events into the core's log: the events every move
// makes (play, draw, pass, effects...) built through the C API, the rare whole-round ones
// through pybind11.
struct PySink : Sink {
    Core* core;
    explicit PySink(Core* c) : core(c) {}
    void add(py::dict&& e);
    void add(PyObject* e);  // takes the reference
    py::list texts(const Bits& mask);
    PyObject* new_texts(const Bits& mask) { return texts(mask).release().ptr(); }
    PyObject* new_card(int pid);
    py::str card(int pid);
    PyObject* effect(int p, PyObject* op) {
        return event_of({{KEY(t), new_ref(WORD(effect))}, {KEY(p), new_int(p)}, {KEY(op), Py_NewRef(op)}});
    }
    void move(int from, PyObject* to, PyObject* cards, PyObject* why) {
        add(event_of({{KEY(t), new_ref(WORD(move))}, {KEY(from), new_int(from)}, {KEY(to), to},
                      {KEY(cards), cards}, {KEY(why), Py_NewRef(why)}}));
    }
    PyObject* one_card(int c) {
        PyObject* cards = PyList_New(1);
        if (cards == nullptr) throw py::error_already_set();
        PyList_SET_ITEM(cards, 0, new_card(c));
        return cards;
    }
    py::list stock_top_first(const Game& g) {
        py::list out;
        for (auto it = g.stock.rbegin(); it != g.stock.rend(); ++it) out.append(card(*it));
        return out;
    }
    void round(const Game& g) override;
    void on_start(int p, int c) override {
        add(event_of({{KEY(t), new_ref(WORD(effect))}, {KEY(p), new_int(p)}, {KEY(op), new_ref(WORD(on_start))},
                      {KEY(card), new_card(c)}}));
    }
    void round_end(const Game& g, int out, const std::vector<int64_t>& penalties, bool blocked, bool guard) override {
        py::list hands;
        for (const Bits& h : g.hands) hands.append(texts(h));
        py::dict e;
        e[WORD(t)] = WORD(round_end), e[WORD(n)] = g.round_no, e[WORD(out)] = none_if(out);
        e[WORD(hands)] = hands, e[WORD(penalties)] = penalties, e[WORD(totals)] = g.totals, e[WORD(blocked)] = blocked;
        e[WORD(guard)] = guard;
        add(std::move(e));
    }
    void end(const Game& g) override {
        std::vector<int> order;
        for (int s = 0; s < g.n; ++s) order.push_back(s);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return g.totals[a] < g.totals[b]; });
        py::list ranking;
        for (int s : order) {
            int place = 1;
            for (int64_t t : g.totals) place += t < g.totals[s];
            py::dict r;
            r[WORD(seat)] = s, r[WORD(total)] = g.totals[s], r[WORD(place)] = place;
            ranking.append(r);
        }
        py::dict e;
        e[WORD(t)] = WORD(end), e[WORD(totals)] = g.totals, e[WORD(ranking)] = ranking, e[WORD(shame)] = g.shame;
        e[WORD(guard_rounds)] = g.guard_rounds;
        add(std::move(e));
    }
    void pass(int p) override { add(event_of({{KEY(t), new_ref(WORD(pass))}, {KEY(p), new_int(p)}})); }
    void reshuffle(const Game& g) override {
        py::dict e;
        e[WORD(t)] = WORD(reshuffle), e[WORD(stock)] = stock_top_first(g);
        add(std::move(e));
    }
    void draw(int p, int c, bool forced) override {
        add(event_of({{KEY(t), new_ref(WORD(draw))}, {KEY(p), new_int(p)}, {KEY(card), new_card(c)},
                      {KEY(forced), new_bool(forced)}}));
    }
    void play(int p, int c, bool under) override {
        add(event_of({{KEY(t), new_ref(WORD(play))}, {KEY(p), new_int(p)}, {KEY(card), new_card(c)},
                      {KEY(under), new_bool(under)}}));
    }
    void skip(int p) override { add(event_of({{KEY(t), new_ref(WORD(skip))}, {KEY(p), new_int(p)}})); }
    void optional(int p, int c, bool carried) override {
        add(event_of({{KEY(t), new_ref(WORD(effect))}, {KEY(p), new_int(p)}, {KEY(op), new_ref(WORD(optional))},
                      {KEY(card), new_card(c)}, {KEY(carried_out), new_bool(carried)}}));
    }
    void declare(int p, int s) override {
        add(event_of({{KEY(t), new_ref(WORD(declare))}, {KEY(p), new_int(p)}, {KEY(suit), new_ref(suit_text(s))}}));
    }
    void target(int p, int c, int who) override {
        add(event_of({{KEY(t), new_ref(WORD(effect))}, {KEY(p), new_int(p)}, {KEY(op), new_ref(WORD(target))},
                      {KEY(card), new_card(c)}, {KEY(who), new_int(who)}}));
    }
    void choose(int p, int number, int label) override;
    void give(int from, int to, int c) override { move(from, new_int(to), one_card(c), KEY(give)); }
    void discard(int from, int c) override { move(from, new_ref(WORD(discard)), one_card(c), KEY(discard)); }
    void take(int from, int to, const std::vector<int>& taken) override {
        PyObject* cards = PyList_New(static_cast<Py_ssize_t>(taken.size()));
        if (cards == nullptr) throw py::error_already_set();
        for (size_t i = 0; i < taken.size(); ++i) PyList_SET_ITEM(cards, static_cast<Py_ssize_t>(i), new_card(taken[i]));
        move(from, new_int(to), cards, KEY(take));
    }
    void swap(int from, int to, const Bits& cards) override { move(from, new_int(to), new_texts(cards), KEY(swap)); }
    void effect_skip(int p, int who) override {
        add(event_of({{KEY(t), new_ref(WORD(effect))}, {KEY(p), new_int(p)}, {KEY(op), new_ref(WORD(skip))},
                      {KEY(who), new_int(who)}}));
    }
    void reverse(int direction) override {
        add(event_of({{KEY(t), new_ref(WORD(reverse))}, {KEY(direction), new_int(direction)}}));
    }
    void play_again(int p) override { add(effect(p, KEY(play_again))); }
    void peek(int p, int who, const Bits& cards) override {
        add(event_of({{KEY(t), new_ref(WORD(effect))}, {KEY(p), new_int(p)}, {KEY(op), new_ref(WORD(peek))},
                      {KEY(who), new_int(who)}, {KEY(cards), new_texts(cards)}}));
    }
    void penalty(int p, int points) override {
        add(event_of({{KEY(t), new_ref(WORD(penalty))}, {KEY(p), new_int(p)}, {KEY(points), new_int(points)}}));
    }
    void coin(int p, bool heads) override {
        add(event_of({{KEY(t), new_ref(WORD(coin))}, {KEY(p), new_int(p)},
                      {KEY(result), new_ref(heads ? WORD(heads) : WORD(tails))}}));
    }
};

struct Core {
    std::shared_ptr<const Compiled> compiled;
    Game g;
    py::list log;
    py::list history;
    Py_ssize_t round_start = 0;
    bool has_legal = false;
    std::vector<int> legal_cache;

    const std::vector<int>& legal() {
        if (!has_legal) legal_cache = g.legal(), has_legal = true;
        return legal_cache;
    }

    bool is_legal(int action) {
        const std::vector<int>& now = legal();
        return std::find(now.begin(), now.end(), action) != now.end();
    }

    // Take a legal int action (``taken``, the Python int) and return its events (a new list).
    PyObject* apply(int action, PyObject* taken) {
        has_legal = false;
        PyObject* turn = PyLong_FromLong(g.turn);
        PyObject* entry = turn == nullptr ? nullptr : PyTuple_Pack(2, turn, taken);
        Py_XDECREF(turn);
        if (entry == nullptr || PyList_Append(history.ptr(), entry) < 0) {
            Py_XDECREF(entry);
            throw py::error_already_set();
        }
        Py_DECREF(entry);
        Py_ssize_t mark = PyList_GET_SIZE(log.ptr());
        PySink sink(this);
        g.sink = &sink;
        try {
            g.apply(action);
        } catch (...) {
            g.sink = nullptr;
            throw;
        }
        g.sink = nullptr;
        return PyList_GetSlice(log.ptr(), mark, PY_SSIZE_T_MAX);
    }

    Core clone() const {
        Core other;
        other.compiled = compiled;
        other.g = g;
        other.log = py::reinterpret_steal<py::list>(PyList_GetSlice(log.ptr(), 0, PY_SSIZE_T_MAX));
        other.history = py::reinterpret_steal<py::list>(PyList_GetSlice(history.ptr(), 0, PY_SSIZE_T_MAX));
        other.round_start = round_start;
        other.has_legal = has_legal;
        other.legal_cache = legal_cache;
        return other;
    }

    // Every field of the position, as the reference state holds it (native.py builds it).
    py::dict fields() const {
        py::dict f;
        py::list hands;
        for (const Bits& h : g.hands) hands.append(int_of(h));
        Bits idle((g.n + 63) / 64);
        for (int s = 0; s < g.n; ++s)
            if (g.idle[s]) idle.set(s);
        py::list frames;
        for (const Frame& fr : g.frames)
            frames.append(py::make_tuple(fr.list, fr.index, fr.actor, fr.card,
                                         fr.has_targets ? py::object(py::cast(fr.targets)) : py::object(py::none()),
                                         none_if(fr.receiver), none_if(fr.chosen), fr.left, fr.started));
        py::object pending = py::none();
        if (g.phase == DECIDE && g.pending.kind >= 0) {
            const Decision& d = g.pending;
            pending = py::make_tuple(d.kind, d.seat, d.card, d.choices, int_of(d.candidates),
                                     d.may_stop, d.purpose);
        }
        f["round_no"] = g.round_no, f["dealer"] = g.dealer, f["direction"] = g.direction, f["turn"] = none_if(g.turn);
        f["phase"] = g.phase, f["hands"] = hands, f["stock"] = g.stock, f["discard"] = g.discard, f["suit"] = g.suit;
        f["declared"] = g.declared, f["round_penalties"] = g.round_penalties, f["totals"] = g.totals;
        f["skips"] = g.skips, f["extra_turn"] = g.extra_turn, f["drawn"] = none_if(g.drawn), f["idle_passes"] = int_of(idle);
        f["turns"] = g.turns, f["frames"] = frames, f["pending"] = pending, f["card_declared"] = g.card_declared;
        f["chosen"] = none_if(g.chosen), f["chance"] = g.chance, f["round_start"] = round_start;
        f["shame"] = g.shame, f["guard_rounds"] = g.guard_rounds;
        return f;
    }

    static int int_or(const py::handle& value) { return value.is_none() ? -1 : value.cast<int>(); }

    // Every field from a reference position's values (fields()'s keys; a determinized world).
    void load(const py::dict& f) {
        int words = g.prog->words;
        g.round_no = f["round_no"].cast<int64_t>();
        g.dealer = f["dealer"].cast<int>(), g.direction = f["direction"].cast<int>(), g.turn = int_or(f["turn"]);
        g.phase = f["phase"].cast<int>();
        g.hands.clear();
        for (auto h : f["hands"]) g.hands.push_back(bits_of(py::reinterpret_borrow<py::int_>(h), words));
        g.stock = f["stock"].cast<std::vector<int>>(), g.discard = f["discard"].cast<std::vector<int>>();
        g.suit = f["suit"].cast<int>(), g.declared = f["declared"].cast<bool>();
        g.round_penalties = f["round_penalties"].cast<std::vector<int64_t>>();
        g.totals = f["totals"].cast<std::vector<int64_t>>(), g.skips = f["skips"].cast<std::vector<int64_t>>();
        g.extra_turn = f["extra_turn"].cast<bool>(), g.drawn = int_or(f["drawn"]);
        py::int_ idle = f["idle_passes"].cast<py::int_>();
        g.idle.assign(g.n, 0);
        g.idle_count = 0;
        for (int s = 0; s < g.n; ++s) {
            g.idle[s] = py::cast<int>(idle.attr("__rshift__")(s).attr("__and__")(1));
            g.idle_count += g.idle[s];
        }
        g.turns = f["turns"].cast<int64_t>();
        g.frames.clear();
        for (auto item : f["frames"]) {
            py::tuple t = py::reinterpret_borrow<py::tuple>(item);
            Frame fr;
            fr.list = t[0].cast<int>(), fr.index = t[1].cast<int>(), fr.actor = t[2].cast<int>(), fr.card = t[3].cast<int>();
            fr.has_targets = !t[4].is_none();
            if (fr.has_targets) fr.targets = t[4].cast<std::vector<int>>();
            fr.receiver = int_or(t[5]), fr.chosen = int_or(t[6]), fr.left = t[7].cast<int>(), fr.started = t[8].cast<bool>();
            g.frames.push_back(std::move(fr));
        }
        g.pending = Decision{};
        if (!f["pending"].is_none()) {
            py::tuple t = f["pending"].cast<py::tuple>();
            Decision& d = g.pending;
            d.kind = t[0].cast<int>(), d.seat = t[1].cast<int>(), d.card = t[2].cast<int>();
            d.choices = t[3].cast<std::vector<int>>(), d.candidates = bits_of(t[4].cast<py::int_>(), words);
            d.may_stop = t[5].cast<bool>(), d.purpose = t[6].cast<int>();
        }
        g.card_declared = f["card_declared"].cast<bool>(), g.chosen = int_or(f["chosen"]);
        g.chance = f["chance"].cast<int64_t>(), round_start = f["round_start"].cast<Py_ssize_t>();
        g.shame = f["shame"].cast<std::vector<int>>(), g.guard_rounds = f["guard_rounds"].cast<int64_t>();
        g.over_ranked = g.phase == OVER;
        log = f["log"].cast<py::list>(), history = f["history"].cast<py::list>();
        g.seed = f["seed"].cast<std::string>();
        has_legal = false;
    }
};

inline void PySink::add(py::dict&& e) { core->log.append(std::move(e)); }
inline void PySink::add(PyObject* e) {
    int failed = PyList_Append(core->log.ptr(), e);
    Py_DECREF(e);
    if (failed < 0) throw py::error_already_set();
}
inline py::str PySink::card(int pid) { return core->compiled->card[pid]; }
inline PyObject* PySink::new_card(int pid) { return Py_NewRef(core->compiled->card[pid].ptr()); }
inline py::list PySink::texts(const Bits& mask) {
    py::list out;
    mask.each([&](int pid) { out.append(card(pid)); });
    return out;
}
inline void PySink::round(const Game& g) {
    core->round_start = static_cast<Py_ssize_t>(py::len(core->log));
    py::list hands;
    for (const Bits& h : g.hands) hands.append(texts(h));
    py::dict e;
    e[WORD(t)] = WORD(round), e[WORD(n)] = g.round_no, e[WORD(dealer)] = g.dealer, e[WORD(hands)] = hands;
    e[WORD(stock)] = stock_top_first(g), e[WORD(starter)] = card(g.discard[0]), e[WORD(suit)] = suit_text(g.suit);
    e[WORD(direction)] = g.direction;
    add(std::move(e));
}
inline void PySink::choose(int p, int number, int label) {
    add(event_of({{KEY(t), new_ref(WORD(effect))}, {KEY(p), new_int(p)}, {KEY(op), new_ref(WORD(choose))},
                  {KEY(option), new_int(number + 1)}, {KEY(label), new_ref(core->compiled->label[label])}}));
}

inline std::shared_ptr<Compiled> compile(const py::object& program) {
    auto made = std::make_shared<Compiled>();
    made->program->load(
        program.attr("steps").cast<std::vector<int>>(), program.attr("lists").cast<std::vector<int>>(),
        program.attr("options").cast<std::vector<int>>(), program.attr("labels").cast<std::vector<std::string>>(),
        program.attr("filters").cast<std::vector<int>>(), program.attr("designs").cast<std::vector<int>>(),
        program.attr("card_of").cast<std::vector<int>>(), program.attr("ask_optional").cast<int>(),
        program.attr("end_turn").cast<int>());
    return made;
}

// BAEBAE's rules as one object, made from the Python rules whole (their options by name,
// baebae.hpp's list) and the deck they play, compiled (BaebaeProgram, from loaded_rules), once per
// rules in Python (games/baebae/native.py's core_rules), and taken whole by every function that
// plays BAEBAE: the rules and the compiled deck (its card texts for the events).
struct PyRules {
    Rules rules;
    std::shared_ptr<Compiled> compiled;
};

// -- the state object: Core as a plain CPython type -------------------------------------------
//
// The per-action calls (legal_actions, apply, clone, current_player, is_over, scores...) are
// what the web, the terminal and every bot make at each move, so they are written against the
// C API as METH_NOARGS / METH_O methods and getters, with none of pybind11's dispatch on the
// way: cardroom.games.baebae.native.NativeBaebaeState subclasses this type and adds the rest of
// the protocol in Python. The fields of the Python face (rules, seed, n, origin, its action
// space and program, the cached reference) live here too, so a clone is made in one call.

struct CoreObject {
    PyObject_HEAD
    Core* core;
    PyObject* rules;
    PyObject* seed;
    PyObject* origin;
    PyObject* space;
    PyObject* program;
    PyObject* ref;  // the Python reference position, cached until the next action
    int n;
};

inline PyTypeObject* core_type = nullptr;

inline Core& core_of(py::handle state) {
    if (core_type == nullptr || !PyObject_TypeCheck(state.ptr(), core_type))
        throw py::type_error("a native BAEBAE state is needed");
    Core& core = *reinterpret_cast<CoreObject*>(state.ptr())->core;
    if (!core.compiled) throw py::value_error("the native BAEBAE state has not been started (baebae_start)");
    return core;
}

// Runs ``body`` and turns a C++ exception into a Python one (nothing may unwind through C).
template <class Body>
PyObject* core_guarded(Body&& body) {
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

inline Core* started(PyObject* object) {
    Core* core = reinterpret_cast<CoreObject*>(object)->core;
    if (!core->compiled) {
        PyErr_SetString(PyExc_ValueError, "the native BAEBAE state has not been started (baebae_start)");
        return nullptr;
    }
    return core;
}

inline PyObject* core_new(PyTypeObject* type, PyObject*, PyObject*) {
    auto* self = reinterpret_cast<CoreObject*>(type->tp_alloc(type, 0));
    if (self == nullptr) return nullptr;
    PyObject* made = core_guarded([&]() -> PyObject* {
        self->core = new Core();
        return reinterpret_cast<PyObject*>(self);
    });
    if (made == nullptr) Py_DECREF(self);
    return made;
}

inline void core_dealloc(PyObject* object) {
    auto* self = reinterpret_cast<CoreObject*>(object);
    delete self->core;
    for (PyObject* field : {self->rules, self->seed, self->origin, self->space, self->program, self->ref})
        Py_XDECREF(field);
    PyTypeObject* type = Py_TYPE(object);
    type->tp_free(object);
    Py_DECREF(type);  // a heap type's instances hold it
}

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

inline PyObject* core_legal_actions(PyObject* object, PyObject*) {
    Core* core = started(object);
    if (core == nullptr) return nullptr;
    return core_guarded([&]() { return int_list(core->legal()); });
}

// apply(action): a legal int is taken here; anything else goes to the Python face's
// _apply_other, which takes an int-like action or refuses in the reference's words.
inline PyObject* core_apply(PyObject* object, PyObject* action) {
    auto* self = reinterpret_cast<CoreObject*>(object);
    Core* core = started(object);
    if (core == nullptr) return nullptr;
    if (PyLong_CheckExact(action)) {
        int overflow = 0;
        long value = PyLong_AsLongAndOverflow(action, &overflow);
        if (!overflow && value >= INT32_MIN && value <= INT32_MAX) {
            PyObject* events = core_guarded([&]() -> PyObject* {
                if (!core->is_legal(static_cast<int>(value))) Py_RETURN_NONE;
                Py_CLEAR(self->ref);
                return core->apply(static_cast<int>(value), action);
            });
            if (events != Py_None) return events;  // the events, or nullptr on an error
            Py_DECREF(events);
        }
    }
    static PyObject* other = PyUnicode_InternFromString("_apply_other");
    return PyObject_CallMethodOneArg(object, other, action);  // one argument, even a tuple
}

inline PyObject* core_clone(PyObject* object, PyObject*) {
    auto* self = reinterpret_cast<CoreObject*>(object);
    PyTypeObject* type = Py_TYPE(object);
    auto* other = reinterpret_cast<CoreObject*>(type->tp_new(type, nullptr, nullptr));
    if (other == nullptr) return nullptr;
    PyObject* made = core_guarded([&]() -> PyObject* {
        *other->core = self->core->clone();
        return reinterpret_cast<PyObject*>(other);
    });
    if (made == nullptr) {
        Py_DECREF(other);
        return nullptr;
    }
    for (auto [to, from] : {std::pair{&other->rules, self->rules}, {&other->seed, self->seed},
                            {&other->origin, self->origin}, {&other->space, self->space},
                            {&other->program, self->program}}) {
        Py_XINCREF(from);
        *to = from;
    }
    other->n = self->n;
    return made;
}

inline PyObject* core_position_fields(PyObject* object, PyObject*) {
    Core* core = started(object);
    if (core == nullptr) return nullptr;
    return core_guarded([&]() { return core->fields().release().ptr(); });
}

inline PyObject* core_load_position(PyObject* object, PyObject* fields) {
    auto* self = reinterpret_cast<CoreObject*>(object);
    Core* core = started(object);
    if (core == nullptr) return nullptr;
    if (!PyDict_Check(fields)) {
        PyErr_SetString(PyExc_TypeError, "load_position takes a dict of the position's fields");
        return nullptr;
    }
    return core_guarded([&]() -> PyObject* {
        core->load(py::reinterpret_borrow<py::dict>(fields));
        Py_CLEAR(self->ref);
        Py_RETURN_NONE;
    });
}

inline PyObject* core_pending_decision(PyObject* object, PyObject*) {
    Core* core = started(object);
    if (core == nullptr) return nullptr;
    return core_guarded([&]() -> PyObject* {
        const Decision& d = core->g.pending;
        if (core->g.phase != DECIDE || d.kind < 0) Py_RETURN_NONE;
        return py::make_tuple(d.kind, d.seat, d.card, d.choices, int_of(d.candidates), d.may_stop, d.purpose)
            .release()
            .ptr();
    });
}

// The action Game::choose (the batches' random agents) takes at each place of the legal list:
// the legal actions in legal_actions' order, for the tests to compare.
inline PyObject* core_random_choices(PyObject* object, PyObject*) {
    Core* core = started(object);
    if (core == nullptr) return nullptr;
    return core_guarded([&]() {
        const Game& g = core->g;
        uint64_t size = 0;
        g.choose([&](uint64_t n) {
            size = n;
            return uint64_t{0};
        });
        std::vector<int> out;
        for (uint64_t k = 0; k < size; ++k) out.push_back(g.choose([k](uint64_t) { return k; }));
        return int_list(out);
    });
}

inline PyMethodDef core_methods[] = {
    {"legal_actions", core_legal_actions, METH_NOARGS, "The actions the seat to act may take now, ascending."},
    {"apply", core_apply, METH_O, "Take an action for the seat to act; returns the events it caused."},
    {"clone", core_clone, METH_NOARGS, "An independent copy (the core's fields copied, events shared)."},
    {"position_fields", core_position_fields, METH_NOARGS, "Every field of the position, as the reference holds it."},
    {"load_position", core_load_position, METH_O, "Every field from a reference position's values."},
    {"pending_decision", core_pending_decision, METH_NOARGS, "The decision waiting, as a tuple, or None."},
    {"random_choices", core_random_choices, METH_NOARGS,
     "The action a native random agent takes at each place of the legal list, in order."},
    {nullptr, nullptr, 0, nullptr},
};

inline PyObject* seat_or_none(int seat) {
    if (seat < 0) Py_RETURN_NONE;
    return PyLong_FromLong(seat);
}

inline const Game& game_of(PyObject* object) { return reinterpret_cast<CoreObject*>(object)->core->g; }

#define CARDROOM_BAEBAE_GETTER(name, body)                   \
    inline PyObject* get_##name(PyObject* object, void*) {   \
        const Game& g = game_of(object);                     \
        (void)g;                                             \
        body                                                 \
    }

CARDROOM_BAEBAE_GETTER(turn, return seat_or_none(g.turn);)
CARDROOM_BAEBAE_GETTER(is_over, return PyBool_FromLong(g.phase == OVER);)
CARDROOM_BAEBAE_GETTER(totals, return int_list(g.totals);)
CARDROOM_BAEBAE_GETTER(round_no, return PyLong_FromLongLong(g.round_no);)
CARDROOM_BAEBAE_GETTER(phase_code, return PyLong_FromLong(g.phase);)
CARDROOM_BAEBAE_GETTER(discard, return int_list(g.discard);)
CARDROOM_BAEBAE_GETTER(stock, return int_list(g.stock);)
CARDROOM_BAEBAE_GETTER(suit, return PyLong_FromLong(g.suit);)
CARDROOM_BAEBAE_GETTER(declared, return PyBool_FromLong(g.declared);)
CARDROOM_BAEBAE_GETTER(direction, return PyLong_FromLong(g.direction);)
CARDROOM_BAEBAE_GETTER(drawn, return seat_or_none(g.drawn);)
CARDROOM_BAEBAE_GETTER(skips, return int_list(g.skips);)
CARDROOM_BAEBAE_GETTER(round_penalties, return int_list(g.round_penalties);)
CARDROOM_BAEBAE_GETTER(hands, return core_guarded([&]() {
                           py::list out;
                           for (const Bits& h : g.hands) out.append(int_of(h));
                           return out.release().ptr();
                       });)

#undef CARDROOM_BAEBAE_GETTER

inline PyObject* get_log(PyObject* object, void*) {
    return Py_NewRef(reinterpret_cast<CoreObject*>(object)->core->log.ptr());
}
inline PyObject* get_history(PyObject* object, void*) {
    return Py_NewRef(reinterpret_cast<CoreObject*>(object)->core->history.ptr());
}

inline PyGetSetDef core_getset[] = {
    {"current_player", get_turn, nullptr, "The seat to act, None when nobody is.", nullptr},
    {"turn", get_turn, nullptr, "BaebaeState.turn: the seat to act, or None.", nullptr},
    {"is_over", get_is_over, nullptr, "Whether the game has ended.", nullptr},
    {"scores", get_totals, nullptr, "The running totals, by seat.", nullptr},
    {"totals", get_totals, nullptr, "BaebaeState.totals.", nullptr},
    {"deal_number", get_round_no, nullptr, "The round being played, from 1.", nullptr},
    {"round_no", get_round_no, nullptr, "BaebaeState.round_no.", nullptr},
    {"phase_code", get_phase_code, nullptr, "The phase as an int: play 0, drawn 1, decide 2, over 3.", nullptr},
    {"log", get_log, nullptr, "Every event so far (omniscient).", nullptr},
    {"history", get_history, nullptr, "Every (seat, action) taken.", nullptr},
    {"hands", get_hands, nullptr, "BaebaeState.hands (card sets as ints).", nullptr},
    {"discard", get_discard, nullptr, "BaebaeState.discard.", nullptr},
    {"stock", get_stock, nullptr, "BaebaeState.stock.", nullptr},
    {"suit", get_suit, nullptr, "BaebaeState.suit.", nullptr},
    {"declared", get_declared, nullptr, "BaebaeState.declared.", nullptr},
    {"direction", get_direction, nullptr, "BaebaeState.direction.", nullptr},
    {"drawn", get_drawn, nullptr, "BaebaeState.drawn, or None.", nullptr},
    {"skips", get_skips, nullptr, "BaebaeState.skips.", nullptr},
    {"round_penalties", get_round_penalties, nullptr, "BaebaeState.round_penalties.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

inline PyMemberDef core_members[] = {
    {"rules", T_OBJECT_EX, offsetof(CoreObject, rules), 0, "The Rules the game is played by."},
    {"seed", T_OBJECT_EX, offsetof(CoreObject, seed), 0, "Where the game's chance comes from."},
    {"origin", T_OBJECT, offsetof(CoreObject, origin), 0, "How a hand-made game began, or None."},
    {"space", T_OBJECT_EX, offsetof(CoreObject, space), 0, "The game's ActionSpace."},
    {"_program", T_OBJECT_EX, offsetof(CoreObject, program), 0, "The compiled Program of the rules."},
    {"_ref", T_OBJECT, offsetof(CoreObject, ref), 0, "The cached Python reference position, or None."},
    {"n", T_INT, offsetof(CoreObject, n), 0, "The number of players."},
    {nullptr, 0, 0, 0, nullptr},
};

inline PyType_Slot core_slots[] = {
    {Py_tp_doc, const_cast<char*>("BAEBAE's state on the native engine (subclassed by NativeBaebaeState).")},
    {Py_tp_new, reinterpret_cast<void*>(core_new)},
    {Py_tp_dealloc, reinterpret_cast<void*>(core_dealloc)},
    {Py_tp_methods, core_methods},
    {Py_tp_getset, core_getset},
    {Py_tp_members, core_members},
    {0, nullptr},
};

inline PyType_Spec core_spec = {
    "cardroom.native._core.BaebaeCore", sizeof(CoreObject), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    core_slots,
};

inline PyTypeObject* make_core_type() {
    auto* type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&core_spec));
    if (type == nullptr) throw py::error_already_set();
    return type;
}

// A batch's games as cardroom.games.baebae.native.BatchGames keeps them, made here in one pass
// through the C API rather than by Python loops over the flat lists (which cost a quarter of a
// random batch's time), the cyclic collector paused (pylists.hpp): per game its totals' row, its
// winners (the seats in first place), the first winner (-1 for a game the action guard stopped),
// the actions, its rounds' penalties (one row a round) and its extras' dict ({"blocked_rounds",
// "guard_rounds"}).
inline py::dict batch_games(const Played& out, int n) {
    using pylists::CollectorPaused, pylists::int_list, pylists::int_rows, pylists::integer, pylists::IntDicts,
        pylists::new_list, pylists::put;
    CollectorPaused paused;
    static const py::str* blocked_key = new py::str("blocked_rounds");  // made once, never freed
    static const py::str* guard_key = new py::str("guard_rounds");
    IntDicts extra_dicts{blocked_key, guard_key};
    auto games = static_cast<Py_ssize_t>(out.actions.size());
    py::object totals = new_list(games), winner_lists = new_list(games), winners = new_list(games);
    py::object deal_points = new_list(games), extras = new_list(games);
    size_t point = 0;  // the next round's penalties in out.points
    for (Py_ssize_t i = 0; i < games; ++i) {
        size_t at = static_cast<size_t>(i) * static_cast<size_t>(n);
        put(totals, i, int_list(&out.totals[at], n));
        int first = 0;
        for (int s = 0; s < n; ++s) first += out.winners[at + s] != 0;
        py::object seats = new_list(first);
        int winner = -1;
        for (int s = 0, k = 0; s < n; ++s)
            if (out.winners[at + s]) {
                if (winner < 0) winner = s;
                put(seats, k++, integer(s));
            }
        put(winner_lists, i, std::move(seats));
        put(winners, i, integer(out.stopped[i] ? -1 : winner));
        put(deal_points, i, int_rows(out.points.data(), point, out.deals[i], n));
        put(extras, i, extra_dicts.make({out.blocked[i], out.guarded[i]}));
    }
    py::dict result;
    result["totals"] = totals, result["winner_lists"] = winner_lists, result["winners"] = winners;
    result["actions"] = int_list(out.actions.data(), games), result["deal_points"] = deal_points;
    result["extras"] = extras;
    return result;
}

inline void register_baebae(py::module_& m) {
    py::class_<Compiled, std::shared_ptr<Compiled>>(m, "BaebaeProgram")
        .def(py::init([](const py::object& program, const std::vector<std::string>& cards) {
                 auto made = compile(program);
                 if (static_cast<int>(cards.size()) != made->program->cards())
                     throw py::value_error("one text a physical card");
                 for (const auto& c : cards) made->card.emplace_back(c);
                 for (const auto& l : made->program->labels) made->label.emplace_back(l);
                 return made;
             }),
             py::arg("program"), py::arg("cards"));
    m.def("baebae_ops", []() { return std::vector<std::string>(OP_NAMES, OP_NAMES + OP_COUNT); });
    core_type = make_core_type();
    m.add_object("BaebaeCore", reinterpret_cast<PyObject*>(core_type));
    py::class_<PyRules> rules_class(m, "BaebaeRules", "BAEBAE's rules as the core plays them (cardroom.games.baebae.native.core_rules).");
    rules_class.def(py::init([](const py::handle& given, std::shared_ptr<Compiled> compiled) {
                        Rules made = rules_py::rules_from<Rules>(
                            {"BaebaeRules", "baebae", "BAEBAE's rules (cardroom.games.baebae.Rules)"}, given);
                        if (!compiled) throw py::type_error("BaebaeRules: program must be the rules' deck compiled (a BaebaeProgram)");
                        made.program = compiled->program;
                        return PyRules{made, std::move(compiled)};
                    }),
                    py::arg("rules"), py::arg("program"));
    rules_py::bind_options<Rules>(rules_class, [](const PyRules& r) -> const Rules& { return r.rules; });
    m.def(
        "baebae_start",
        [](py::handle state, const PyRules& rules, const std::string& seed, int dealer,
           const std::vector<int64_t>& totals, const py::object& first) {
            if (core_type == nullptr || !PyObject_TypeCheck(state.ptr(), core_type))
                throw py::type_error("a native BAEBAE state is needed");
            Core& core = *reinterpret_cast<CoreObject*>(state.ptr())->core;
            core = Core();
            core.compiled = rules.compiled;
            core.g.setup(rules.rules, seed);
            core.g.totals = totals;
            core.g.dealer = dealer;
            PySink sink(&core);
            core.g.sink = &sink;
            if (first.is_none()) {
                core.g.begin_round();
            } else {
                std::vector<int> deck = first.cast<std::vector<int>>();
                core.g.begin_round(&deck);
            }
            core.g.sink = nullptr;
            Py_CLEAR(reinterpret_cast<CoreObject*>(state.ptr())->ref);
        },
        py::arg("state"), py::arg("rules"), py::arg("seed"), py::arg("dealer"), py::arg("totals"), py::arg("first"));
    m.def(
        "baebae_games",
        [](const PyRules& given, int64_t first_seed, int64_t games, int64_t max_actions,
           const std::vector<bool>& heuristic, bool exact) {
            const Rules& rules = given.rules;
            const int players = rules.players;
            if (static_cast<int>(heuristic.size()) != players) throw py::value_error("one policy a seat");
            Played out;
            {
                py::gil_scoped_release unlocked;  // no Python object is touched while the games run
                play_games(rules, first_seed, games, max_actions, heuristic, exact, out);
            }
            return batch_games(out, players);
        },
        py::arg("rules"), py::arg("first_seed"), py::arg("games"), py::arg("max_actions"), py::arg("heuristic"),
        py::arg("exact"));
    // BAEBAE's heuristic player, for the tests against the Python one
    py::class_<Heuristic>(m, "BaebaeHeuristic")
        .def(py::init([](const py::int_& seed, bool split) {
                 if (split) {  // engine.seeded_rng(seed, "splitmix")
                     std::string text = py::str(seed);
                     return Heuristic{PyRandom::splitmix(key_hash(text.data(), text.size()))};
                 }
                 std::vector<uint32_t> words;
                 py::object magnitude = py::reinterpret_steal<py::object>(PyNumber_Absolute(seed.ptr()));
                 do {
                     words.push_back(py::cast<uint32_t>(magnitude.attr("__and__")(0xffffffffULL)));
                     magnitude = magnitude.attr("__rshift__")(32);
                 } while (py::cast<bool>(magnitude));
                 return Heuristic{PyRandom(words.data(), static_cast<int>(words.size()))};
             }),
             py::arg("seed"), py::arg("split") = false)
        .def("act", [](Heuristic& h, py::handle state) {
            const Core& c = core_of(state);
            if (c.g.turn < 0) throw py::value_error("the game is over: nobody is to act");
            return h.act(c.g);
        })
        .def("random", [](Heuristic& h) { return h.rng.random(); });
}

}  // namespace baebae_py
}  // namespace cardroom
