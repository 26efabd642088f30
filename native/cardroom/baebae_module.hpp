// BAEBAE's native core as Python sees it (pybind11): a compiled program (from
// games/baebae/program.py), a game core that cardroom.games.baebae.native.NativeBaebaeState
// drives through the State protocol, its events written as the Python engine's dicts (key for
// key, in the same order), and its fields read and written for the reference position.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cardroom/baebae.hpp"
#include "cardroom/baebae_batch.hpp"

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

// The sink that writes the Python engine's events into the core's log.
struct PySink : Sink {
    Core* core;
    explicit PySink(Core* c) : core(c) {}
    void add(py::dict&& e);
    py::list texts(const Bits& mask);
    py::str card(int pid);
    py::dict effect(int p, const py::str& op) {
        py::dict e;
        e[WORD(t)] = WORD(effect), e[WORD(p)] = p, e[WORD(op)] = op;
        return e;
    }
    py::dict move(int from, py::object to, py::list cards, const py::str& why) {
        py::dict e;
        e[WORD(t)] = WORD(move), e[WORD(from)] = from, e[WORD(to)] = std::move(to), e[WORD(cards)] = std::move(cards), e[WORD(why)] = why;
        return e;
    }
    py::list stock_top_first(const Game& g) {
        py::list out;
        for (auto it = g.stock.rbegin(); it != g.stock.rend(); ++it) out.append(card(*it));
        return out;
    }
    void round(const Game& g) override;
    void on_start(int p, int c) override {
        py::dict e = effect(p, WORD(on_start));
        e[WORD(card)] = card(c);
        add(std::move(e));
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
    void pass(int p) override {
        py::dict e;
        e[WORD(t)] = WORD(pass), e[WORD(p)] = p;
        add(std::move(e));
    }
    void reshuffle(const Game& g) override {
        py::dict e;
        e[WORD(t)] = WORD(reshuffle), e[WORD(stock)] = stock_top_first(g);
        add(std::move(e));
    }
    void draw(int p, int c, bool forced) override {
        py::dict e;
        e[WORD(t)] = WORD(draw), e[WORD(p)] = p, e[WORD(card)] = card(c), e[WORD(forced)] = forced;
        add(std::move(e));
    }
    void play(int p, int c, bool under) override {
        py::dict e;
        e[WORD(t)] = WORD(play), e[WORD(p)] = p, e[WORD(card)] = card(c), e[WORD(under)] = under;
        add(std::move(e));
    }
    void skip(int p) override {
        py::dict e;
        e[WORD(t)] = WORD(skip), e[WORD(p)] = p;
        add(std::move(e));
    }
    void optional(int p, int c, bool carried) override {
        py::dict e = effect(p, WORD(optional));
        e[WORD(card)] = card(c), e[WORD(carried_out)] = carried;
        add(std::move(e));
    }
    void declare(int p, int s) override {
        py::dict e;
        e[WORD(t)] = WORD(declare), e[WORD(p)] = p, e[WORD(suit)] = suit_text(s);
        add(std::move(e));
    }
    void target(int p, int c, int who) override {
        py::dict e = effect(p, WORD(target));
        e[WORD(card)] = card(c), e[WORD(who)] = who;
        add(std::move(e));
    }
    void choose(int p, int number, int label) override;
    void give(int from, int to, int c) override {
        py::list cards;
        cards.append(card(c));
        add(move(from, py::int_(to), cards, WORD(give)));
    }
    void discard(int from, int c) override {
        py::list cards;
        cards.append(card(c));
        add(move(from, WORD(discard), cards, WORD(discard)));
    }
    void take(int from, int to, const std::vector<int>& taken) override {
        py::list cards;
        for (int c : taken) cards.append(card(c));
        add(move(from, py::int_(to), cards, WORD(take)));
    }
    void swap(int from, int to, const Bits& cards) override { add(move(from, py::int_(to), texts(cards), WORD(swap))); }
    void effect_skip(int p, int who) override {
        py::dict e = effect(p, WORD(skip));
        e[WORD(who)] = who;
        add(std::move(e));
    }
    void reverse(int direction) override {
        py::dict e;
        e[WORD(t)] = WORD(reverse), e[WORD(direction)] = direction;
        add(std::move(e));
    }
    void play_again(int p) override { add(effect(p, WORD(play_again))); }
    void peek(int p, int who, const Bits& cards) override {
        py::dict e = effect(p, WORD(peek));
        e[WORD(who)] = who, e[WORD(cards)] = texts(cards);
        add(std::move(e));
    }
    void penalty(int p, int points) override {
        py::dict e;
        e[WORD(t)] = WORD(penalty), e[WORD(p)] = p, e[WORD(points)] = points;
        add(std::move(e));
    }
    void coin(int p, bool heads) override {
        py::dict e;
        e[WORD(t)] = WORD(coin), e[WORD(p)] = p, e[WORD(result)] = heads ? WORD(heads) : WORD(tails);
        add(std::move(e));
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
    py::object ref = py::none();  // the Python face's cached reference position (native.py)

    const std::vector<int>& legal() {
        if (!has_legal) legal_cache = g.legal(), has_legal = true;
        return legal_cache;
    }

    // Take a legal int action and return its events; None when the action is not legal now.
    py::object apply(int action) {
        const std::vector<int>& now = legal();
        if (std::find(now.begin(), now.end(), action) == now.end()) return py::none();
        has_legal = false;
        ref = py::none();
        history.append(py::make_tuple(g.turn, action));
        Py_ssize_t mark = static_cast<Py_ssize_t>(py::len(log));
        PySink sink(this);
        g.sink = &sink;
        g.apply(action);
        g.sink = nullptr;
        return py::reinterpret_steal<py::list>(PyList_GetSlice(log.ptr(), mark, PY_SSIZE_T_MAX));
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
inline py::str PySink::card(int pid) { return core->compiled->card[pid]; }
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
    py::dict e = effect(p, WORD(choose));
    e[WORD(option)] = number + 1, e[WORD(label)] = core->compiled->label[label];
    add(std::move(e));
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

inline Rules rules_of(const Compiled& compiled, int players, int rounds, int hand_size, int turn_limit,
                      bool draw_when_able, bool chosen_once) {
    Rules r;
    r.players = players, r.rounds = rounds, r.hand_size = hand_size, r.turn_limit = turn_limit;
    r.draw_when_able = draw_when_able, r.chosen_once = chosen_once, r.program = compiled.program;
    return r;
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
    py::class_<Core>(m, "BaebaeCore")
        .def(py::init([](std::shared_ptr<Compiled> compiled, int players, int rounds, int hand_size, int turn_limit,
                         bool draw_when_able, bool chosen_once, const std::string& seed, int dealer,
                         const std::vector<int64_t>& totals, const py::object& first) {
                 auto core = std::make_unique<Core>();
                 core->compiled = compiled;
                 core->g.setup(rules_of(*compiled, players, rounds, hand_size, turn_limit, draw_when_able, chosen_once),
                               seed);
                 core->g.totals = totals;
                 core->g.dealer = dealer;
                 PySink sink(core.get());
                 core->g.sink = &sink;
                 if (first.is_none()) {
                     core->g.begin_round();
                 } else {
                     std::vector<int> deck = first.cast<std::vector<int>>();
                     core->g.begin_round(&deck);
                 }
                 core->g.sink = nullptr;
                 return core;
             }),
             py::arg("program"), py::arg("players"), py::arg("rounds"), py::arg("hand_size"), py::arg("turn_limit"),
             py::arg("draw_when_able"), py::arg("chosen_once"), py::arg("seed"), py::arg("dealer"), py::arg("totals"),
             py::arg("first"))
        .def(py::init([](const Core& other) { return std::make_unique<Core>(other.clone()); }), py::arg("other"))
        .def("legal_actions", [](Core& c) {
            const std::vector<int>& legal = c.legal();
            PyObject* out = PyList_New(static_cast<Py_ssize_t>(legal.size()));
            if (out == nullptr) throw py::error_already_set();
            for (size_t i = 0; i < legal.size(); ++i) PyList_SET_ITEM(out, i, PyLong_FromLong(legal[i]));
            return py::reinterpret_steal<py::list>(out);
        })
        // apply(action): a legal int is taken here; anything else goes to the Python face's
        // _apply_other, which takes an int-like action or refuses in the reference's words.
        .def("apply", [](py::object self, py::handle action) -> py::object {
            if (PyLong_CheckExact(action.ptr())) {
                int overflow = 0;
                long value = PyLong_AsLongAndOverflow(action.ptr(), &overflow);
                if (!overflow && value >= INT32_MIN && value <= INT32_MAX) {
                    py::object events = self.cast<Core&>().apply(static_cast<int>(value));
                    if (!events.is_none()) return events;
                }
            }
            return self.attr("_apply_other")(action);
        })
        .def("position_fields", &Core::fields)
        .def("load_position", &Core::load)
        .def_readwrite("_ref", &Core::ref)
        .def_property_readonly("current_player", [](const Core& c) { return none_if(c.g.turn); })
        .def_property_readonly("turn", [](const Core& c) { return none_if(c.g.turn); })
        .def_property_readonly("is_over", [](const Core& c) { return c.g.phase == OVER; })
        .def_property_readonly("scores", [](const Core& c) { return c.g.totals; })
        .def_property_readonly("totals", [](const Core& c) { return c.g.totals; })
        .def_property_readonly("deal_number", [](const Core& c) { return c.g.round_no; })
        .def_property_readonly("round_no", [](const Core& c) { return c.g.round_no; })
        .def_property_readonly("phase_code", [](const Core& c) { return c.g.phase; })
        .def_property_readonly("log", [](const Core& c) { return c.log; })
        .def_property_readonly("history", [](const Core& c) { return c.history; })
        // The fields the observation encoder reads, straight from the game (no reference made)
        .def_property_readonly("hands", [](const Core& c) {
            py::list out;
            for (const Bits& h : c.g.hands) out.append(int_of(h));
            return out;
        })
        .def_property_readonly("discard", [](const Core& c) { return c.g.discard; })
        .def_property_readonly("stock", [](const Core& c) { return c.g.stock; })
        .def_property_readonly("suit", [](const Core& c) { return c.g.suit; })
        .def_property_readonly("declared", [](const Core& c) { return c.g.declared; })
        .def_property_readonly("direction", [](const Core& c) { return c.g.direction; })
        .def_property_readonly("drawn", [](const Core& c) { return none_if(c.g.drawn); })
        .def_property_readonly("skips", [](const Core& c) { return c.g.skips; })
        .def_property_readonly("round_penalties", [](const Core& c) { return c.g.round_penalties; })
        .def("pending_decision", [](const Core& c) -> py::object {
            const Decision& d = c.g.pending;
            if (c.g.phase != DECIDE || d.kind < 0) return py::none();
            return py::make_tuple(d.kind, d.seat, d.card, d.choices, int_of(d.candidates), d.may_stop, d.purpose);
        });
    m.def(
        "baebae_games",
        [](std::shared_ptr<Compiled> compiled, int players, int rounds, int hand_size, int turn_limit,
           bool draw_when_able, bool chosen_once, int64_t first_seed, int64_t games, int64_t max_actions,
           const std::vector<bool>& heuristic, bool exact) {
            Rules rules = rules_of(*compiled, players, rounds, hand_size, turn_limit, draw_when_able, chosen_once);
            if (static_cast<int>(heuristic.size()) != players) throw py::value_error("one policy a seat");
            Played out;
            {
                py::gil_scoped_release unlocked;  // no Python object is touched while the games run
                play_games(rules, first_seed, games, max_actions, heuristic, exact, out);
            }
            py::dict result;
            result["totals"] = out.totals, result["winners"] = out.winners, result["stopped"] = out.stopped;
            result["actions"] = out.actions, result["deals"] = out.deals, result["blocked"] = out.blocked;
            result["guarded"] = out.guarded, result["points"] = out.points;
            return result;
        },
        py::arg("program"), py::arg("players"), py::arg("rounds"), py::arg("hand_size"), py::arg("turn_limit"),
        py::arg("draw_when_able"), py::arg("chosen_once"), py::arg("first_seed"), py::arg("games"),
        py::arg("max_actions"), py::arg("heuristic"), py::arg("exact"));
    // BAEBAE's heuristic player, for the tests against the Python one
    py::class_<Heuristic>(m, "BaebaeHeuristic")
        .def(py::init([](const py::int_& seed) {
                 std::vector<uint32_t> words;
                 py::object magnitude = py::reinterpret_steal<py::object>(PyNumber_Absolute(seed.ptr()));
                 do {
                     words.push_back(py::cast<uint32_t>(magnitude.attr("__and__")(0xffffffffULL)));
                     magnitude = magnitude.attr("__rshift__")(32);
                 } while (py::cast<bool>(magnitude));
                 return Heuristic{PyRandom(words.data(), static_cast<int>(words.size()))};
             }),
             py::arg("seed"))
        .def("act", [](Heuristic& h, const Core& c) {
            if (c.g.turn < 0) throw py::value_error("the game is over: nobody is to act");
            return h.act(c.g);
        })
        .def("random", [](Heuristic& h) { return h.rng.random(); });
}

}  // namespace baebae_py
}  // namespace cardroom
