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
#include <array>
#include <initializer_list>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cardroom/baebae.hpp"
#include "cardroom/baebae_batch.hpp"
#include "cardroom/core_type.hpp"
#include "cardroom/fields.hpp"
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
    CARDROOM_BAEBAE_CORE_MEMBERS  // the log, the history, round_start (generated/baebae_fields.hpp)
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

    // What the core type (core_type.hpp) calls at each action
    bool started() const { return compiled != nullptr; }  // baebae_start gives the compiled deck
    bool over() const { return g.phase == OVER; }
    PyObject* legal_actions();  // a new list

    // Take a legal int action, its events logged.
    void play(int action) {
        has_legal = false;
        PySink sink(this);
        g.sink = &sink;
        try {
            g.apply(action);
        } catch (...) {
            g.sink = nullptr;
            throw;
        }
        g.sink = nullptr;
    }

    // Everything copied into ``other``, a new core (a clone, made in place).
    void copy_to(Core& other) const {
        other.compiled = compiled;
        other.g = g;
#define CARDROOM_BAEBAE_COPY(name, codec) fields::codec::copy(other.name, name);
        CARDROOM_BAEBAE_CORE_FIELDS(CARDROOM_BAEBAE_COPY)
#undef CARDROOM_BAEBAE_COPY
        other.has_legal = has_legal;
        other.legal_cache = legal_cache;
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

// The codecs of BAEBAE's fields that are more than a number or a list of numbers (fields.hpp
// has those): each takes the whole game (the ranking the whole core). The frames and the
// pending decision cross as the reference's own objects (interpreter.Frame and Decision), their
// step lists by the program's numbers and their words by the native state's KINDS and PURPOSES.
namespace baebae_codecs {
using namespace cardroom::fields;

// interpreter.Frame and interpreter.Decision, looked up once (never freed: they outlive the
// module's users); the pending decision is read at every step of a decision.
inline const py::object& frame_type() {
    static const py::object* made = new py::object(py::module_::import("cardroom.games.baebae.interpreter").attr("Frame"));
    return *made;
}
inline const py::object& decision_type() {
    static const py::object* made =
        new py::object(py::module_::import("cardroom.games.baebae.interpreter").attr("Decision"));
    return *made;
}

// Each seat's hand: a set of cards as the reference's int.
struct Hands {
    static PyObject* get(const Game& g, const Context&) {
        return core_type::guarded([&]() {
            py::list out;
            for (const Bits& h : g.hands) out.append(int_of(h));
            return out.release().ptr();
        });
    }
    static void load(Game& g, py::handle python, const Context&) {
        g.hands.clear();
        for (auto h : python) g.hands.push_back(bits_of(py::reinterpret_borrow<py::int_>(h), g.prog->words));
    }
};

// The seats that passed with nothing to draw, as a bitmask: idle and idle_count.
struct IdlePasses {
    static PyObject* get(const Game& g, const Context&) {
        return core_type::guarded([&]() {
            Bits idle((g.n + 63) / 64);
            for (int s = 0; s < g.n; ++s)
                if (g.idle[s]) idle.set(s);
            return int_of(idle).release().ptr();
        });
    }
    static void load(Game& g, py::handle python, const Context&) {
        py::int_ idle = python.cast<py::int_>();
        g.idle.assign(g.n, 0);
        g.idle_count = 0;
        for (int s = 0; s < g.n; ++s) {
            g.idle[s] = py::cast<int>(idle.attr("__rshift__")(s).attr("__and__")(1));
            g.idle_count += g.idle[s];
        }
    }
};

inline int minus_one_or(py::handle value) { return value.is_none() ? -1 : value.cast<int>(); }

// The interpreter's stack, as interpreter.Frame objects (their steps the program's lists).
struct FrameStack {
    static PyObject* get(const Game& g, const Context& c) {
        return core_type::guarded([&]() {
            py::list out;
            if (g.frames.empty()) return out.release().ptr();
            py::object tuples = py::handle(c.state).attr("_program").attr("tuples");
            for (const Frame& fr : g.frames) {
                py::object frame = frame_type()(tuples[py::int_(fr.list)], fr.actor, fr.card);
                frame.attr("index") = fr.index;
                frame.attr("targets") = fr.has_targets ? py::object(py::cast(fr.targets)) : py::object(py::none());
                frame.attr("receiver") = none_if(fr.receiver);
                frame.attr("chosen") = none_if(fr.chosen);
                frame.attr("left") = fr.left;
                frame.attr("started") = py::bool_(fr.started);
                out.append(frame);
            }
            return out.release().ptr();
        });
    }
    static void load(Game& g, py::handle python, const Context& c) {
        g.frames.clear();
        if (py::len(python) == 0) return;
        py::object list_of = py::handle(c.state).attr("_program").attr("list_of");
        for (auto frame : python) {
            Frame fr;
            fr.list = list_of[py::tuple(frame.attr("steps"))].cast<int>();
            fr.index = frame.attr("index").cast<int>(), fr.actor = frame.attr("actor").cast<int>();
            fr.card = frame.attr("card").cast<int>();
            py::object targets = frame.attr("targets");
            fr.has_targets = !targets.is_none();
            if (fr.has_targets) fr.targets = targets.cast<std::vector<int>>();
            fr.receiver = minus_one_or(frame.attr("receiver")), fr.chosen = minus_one_or(frame.attr("chosen"));
            fr.left = frame.attr("left").cast<int>(), fr.started = frame.attr("started").cast<bool>();
            g.frames.push_back(fr);
        }
    }
};

// The decision waiting, an interpreter.Decision (its kind and purpose by the state's KINDS and
// PURPOSES), or None.
struct Pending {
    static PyObject* get(const Game& g, const Context& c) {
        if (g.phase != DECIDE || g.pending.kind < 0) Py_RETURN_NONE;
        return core_type::guarded([&]() {
            const Decision& d = g.pending;
            py::handle type = py::type::handle_of(py::handle(c.state));
            py::tuple kinds = type.attr(WORD(KINDS)), purposes = type.attr(WORD(PURPOSES));
            return decision_type()(kinds[static_cast<size_t>(d.kind)], d.seat, d.card, py::tuple(py::cast(d.choices)),
                                   int_of(d.candidates), d.may_stop, purposes[static_cast<size_t>(d.purpose)])
                .release()
                .ptr();
        });
    }
    static void load(Game& g, py::handle python, const Context& c) {
        g.pending = Decision{};
        if (python.is_none()) return;
        py::handle type = py::type::handle_of(py::handle(c.state));
        Decision& d = g.pending;
        d.kind = type.attr("KINDS").attr("index")(python.attr("kind")).cast<int>();
        d.seat = python.attr("seat").cast<int>(), d.card = python.attr("card").cast<int>();
        d.choices = python.attr("choices").cast<std::vector<int>>();
        d.candidates = bits_of(python.attr("candidates").cast<py::int_>(), g.prog->words);
        d.may_stop = python.attr("may_stop").cast<bool>();
        d.purpose = type.attr("PURPOSES").attr("index")(python.attr("purpose")).cast<int>();
    }
};

// The end's ranking, read from the log's last event once the game is over (else None); loaded,
// it only marks an ended game as ranked.
struct Ranking {
    static PyObject* get(const Core& core, const Context&) {
        if (core.g.phase != OVER) Py_RETURN_NONE;
        return core_type::guarded([&]() {
            py::list out;
            for (auto row : core.log[py::len(core.log) - 1]["ranking"]) {
                // a copy of each row, as the Python engine's ranking is: never the log's own dict
                PyObject* copy = PyDict_Copy(row.ptr());
                if (copy == nullptr) throw py::error_already_set();
                out.append(py::reinterpret_steal<py::dict>(copy));
            }
            return out.release().ptr();
        });
    }
    static void load(Core& core, py::handle, const Context&) { core.g.over_ranked = core.g.phase == OVER; }
};
}  // namespace baebae_codecs

// Every field of the table, from ``value(name)`` (the reference state's attribute, or a dict's
// item), each by its codec (generated/baebae_fields.hpp); the face sets its own.
template <class Value>
void load_fields(Core& c, PyObject* state, Value&& value) {
    Game& g = c.g;
#define CARDROOM_BAEBAE_LOAD(name, getter, codec, member, values, doc) \
    baebae_codecs::codec::load(member, value(#name), fields::Context{#name, g.n, state, values});
    CARDROOM_BAEBAE_FIELDS(CARDROOM_BAEBAE_LOAD)
#undef CARDROOM_BAEBAE_LOAD
    g.seed = py::str(value("seed"));  // the game's chance keys take the seed's text
    c.has_legal = false;
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

// -- the state object: Core as a plain CPython type (core_type.hpp) ---------------------------

struct CoreTraits {
    using Core = baebae_py::Core;
    static constexpr const char* name = "cardroom.native._core.BaebaeCore";
    static constexpr const char* doc = "BAEBAE's state on the native engine (subclassed by NativeBaebaeState).";
    static constexpr const char* needed = "a native BAEBAE state is needed";
    static constexpr const char* not_started = "the native BAEBAE state has not been started (baebae_start)";
    static constexpr std::array<core_type::Member, 2> extra{{
        {"space", T_OBJECT_EX, "The game's ActionSpace."},
        {"_program", T_OBJECT_EX, "The compiled Program of the rules."},
    }};
};
using State = core_type::CoreType<CoreTraits>;
using CoreObject = core_type::Object<CoreTraits>;
using core_type::guarded;

inline Core& core_of(py::handle state) { return State::core_of(state); }
inline Core* started(PyObject* object) { return State::started(object); }

using fields::int_list;

inline PyObject* Core::legal_actions() { return int_list(legal()); }

// The action Game::choose (the batches' random agents) takes at each place of the legal list:
// the legal actions in legal_actions' order, for the tests to compare.
inline PyObject* core_random_choices(PyObject* object, PyObject*) {
    Core* core = started(object);
    if (core == nullptr) return nullptr;
    return guarded([&]() {
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

inline PyObject* seat_or_none(int seat) {
    if (seat < 0) Py_RETURN_NONE;
    return PyLong_FromLong(seat);
}

#define CARDROOM_BAEBAE_GETTER(...) CARDROOM_CORE_GETTER(CoreTraits, baebae_codecs, __VA_ARGS__)
CARDROOM_BAEBAE_FIELDS(CARDROOM_BAEBAE_GETTER)
#undef CARDROOM_BAEBAE_GETTER

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

// The batch's binding (core_type.hpp's register_batch): play_games (baebae_batch.hpp), its
// lists made by batch_games above; BAEBAE's batch has no flat layout.
struct BatchTraits {
    using Bound = PyRules;
    using Played = baebae::Played;
    static const Rules& rules_of(const PyRules& given) { return given.rules; }
    static void play(const Rules& rules, int64_t first_seed, int64_t games, int64_t max_actions, bool exact,
                     const std::vector<bool>& heuristic, Played& out) {
        play_games(rules, first_seed, games, max_actions, heuristic, exact, out);
    }
    static py::dict lists(const Played& out, int players, bool flat) {
        if (flat) throw py::value_error("baebae_games: flat must be False (BAEBAE's batch has no flat layout)");
        return batch_games(out, players);
    }
};

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
    State::add(m, "BaebaeCore",
               {
                   {"random_choices", core_random_choices, METH_NOARGS,
                    "The action a native random agent takes at each place of the legal list, in order."},
               },
               {CARDROOM_BAEBAE_FIELDS(CARDROOM_CORE_GETSET)},
               {get_turn, get_totals, get_round_no, "The round being played, from 1."});
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
            if (State::type == nullptr || !PyObject_TypeCheck(state.ptr(), State::type))
                throw py::type_error(CoreTraits::needed);
            Core& core = *State::self_of(state.ptr())->core;
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
            State::changed(state);
        },
        py::arg("state"), py::arg("rules"), py::arg("seed"), py::arg("dealer"), py::arg("totals"), py::arg("first"));
    // Every field of the table set from the Python reference position, each attribute read by name
    m.def(
        "baebae_load",
        [](py::handle state, py::handle reference) {
            Core& core = core_of(state);
            load_fields(core, state.ptr(), [&](const char* name) { return py::object(reference.attr(name)); });
            State::changed(state);
        },
        py::arg("state"), py::arg("reference"));
    core_type::register_batch<BatchTraits>(m, "baebae_games");  // core_type.hpp
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
