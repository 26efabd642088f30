// What one BAEBAE seat knows of the hidden cards, read in C++ from the seat's view of the
// round's events: games/baebae/determinize.knowledge, rule for rule, for the native ISMCTS
// (ismcts_baebae.hpp) and native determinization.
//
// The events are the core's log (the Python engine's dicts) from the round's start; of each,
// only what the seat saw is read: a round's hand sizes (its own hand aside), a draw's seat and
// whether it was forced (never another seat's card), plays and declarations (public), a peek's
// cards when the seat peeked, a move's cards when they went to the discard pile or the seat gave
// or got them (else only how many). Per seat it keeps the designs known in that hand and the
// groups of its hidden cards, oldest first, each with the designs it cannot hold; the pool is
// every hidden card. tests/native/test_ismcts_baebae_native.py holds it to the Python
// knowledge at thousands of seat positions.
#pragma once

#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cardroom/baebae.hpp"
#include "cardroom/baebae_infer.hpp"
#include "cardroom/baebae_module.hpp"
#include "cardroom/ismcts_baebae.hpp"

namespace cardroom {
namespace baebae {
namespace know {

namespace py = pybind11;

// A set of designs (bit d: design d).
struct Designs {
    std::vector<uint64_t> w;
    Designs() = default;
    explicit Designs(int designs) : w(static_cast<size_t>((designs + 63) / 64), 0) {}
    bool has(int d) const { return (w[d >> 6] >> (d & 63)) & 1; }
    void set(int d) { w[d >> 6] |= 1ULL << (d & 63); }
    bool none() const {
        for (uint64_t x : w)
            if (x) return false;
        return true;
    }
    Designs& operator|=(const Designs& o) {
        for (size_t i = 0; i < w.size(); ++i) w[i] |= o.w[i];
        return *this;
    }
    void remove(const Designs& o) {
        for (size_t i = 0; i < w.size(); ++i) w[i] &= ~o.w[i];
    }
};

struct Part {
    Designs forbidden;
    int64_t count;
};

// The deck's tables the reading needs, from the compiled program and the card texts.
struct Tables {
    int designs = 0;
    Designs wild, no_win, suit[4], rank[14];
    std::unordered_map<std::string, int> design_of;  // a card's text: its design
    std::vector<int> by_key;                          // the designs in the order of their keys
};

inline Tables tables_of(const baebae_py::Compiled& compiled) {
    const Program& p = *compiled.program;
    Tables t;
    t.designs = static_cast<int>(p.designs.size());
    t.wild = t.no_win = Designs(t.designs);
    for (auto& s : t.suit) s = Designs(t.designs);
    for (auto& r : t.rank) r = Designs(t.designs);
    for (int d = 0; d < t.designs; ++d) {
        const Design& c = p.designs[d];
        if (c.wild || c.declares) t.wild.set(d);
        if (!c.can_win && !c.optional) t.no_win.set(d);
        t.suit[c.suit].set(d);
        t.rank[c.rank].set(d);
    }
    std::vector<std::string> keys(t.designs);
    for (int pid = 0; pid < p.cards(); ++pid) {
        std::string text = py::cast<std::string>(compiled.card[pid]);
        keys[p.card_of[pid]] = text;
        t.design_of.emplace(std::move(text), p.card_of[pid]);
    }
    t.by_key.resize(t.designs);
    std::iota(t.by_key.begin(), t.by_key.end(), 0);
    std::stable_sort(t.by_key.begin(), t.by_key.end(), [&keys](int a, int b) { return keys[a] < keys[b]; });
    return t;
}

// The tables of a compiled deck, made once per deck (the GIL held: one caller at a time); an
// entry whose deck is gone is made again for the deck now at its address.
inline const Tables& tables_for(const std::shared_ptr<const baebae_py::Compiled>& compiled) {
    struct Entry {
        std::weak_ptr<const baebae_py::Compiled> deck;
        Tables tables;
    };
    static auto* cache = new std::unordered_map<const baebae_py::Compiled*, Entry>();  // never freed
    auto found = cache->find(compiled.get());
    if (found != cache->end() && found->second.deck.lock() == compiled) return found->second.tables;
    if (cache->size() > 64) cache->clear();
    Entry& entry = (*cache)[compiled.get()];
    entry.deck = compiled;
    entry.tables = tables_of(*compiled);
    return entry.tables;
}

// determinize.knowledge's running state, fed the events one by one.
struct Reader {
    const Tables& t;
    int n, seat;
    bool infer;
    std::vector<std::vector<int64_t>> known;  // per seat, per design
    std::vector<std::vector<Part>> groups;    // per seat, oldest first
    int top_rank = 0, suit = 0;
    bool declared = false;

    Reader(const Tables& tables, int players, int s, bool draw_when_able)
        : t(tables), n(players), seat(s), infer(!draw_when_able),
          known(players, std::vector<int64_t>(tables.designs, 0)), groups(players) {}

    int64_t unseen(int p) const {
        int64_t k = 0;
        for (const Part& g : groups[p]) k += g.count;
        return k;
    }
    int64_t held_known(int p) const {
        int64_t k = 0;
        for (int64_t c : known[p]) k += c;
        return k;
    }

    void add(int p, int64_t k) {
        std::vector<Part>& g = groups[p];
        if (k <= 0) return;
        if (!g.empty() && g.back().forbidden.none())
            g.back().count += k;
        else
            g.push_back(Part{Designs(t.designs), k});
    }

    void remove_any(int p, int64_t k) {
        std::vector<Part>& g = groups[p];
        while (k > 0 && !g.empty()) {
            int64_t take = std::min(k, g.front().count);
            g.front().count -= take;
            k -= take;
            if (g.front().count == 0) g.erase(g.begin());
        }
    }

    void remove_design(int p, int d) {
        std::vector<Part>& g = groups[p];
        for (size_t i = 0; i < g.size(); ++i) {
            if (!g[i].forbidden.has(d)) {
                if (--g[i].count == 0) g.erase(g.begin() + static_cast<std::ptrdiff_t>(i));
                return;
            }
        }
        // No group could hold it: forget the constraints rather than keep a false one.
        int64_t left = unseen(p) - 1;
        g.clear();
        if (left > 0) g.push_back(Part{Designs(t.designs), left});
    }

    void could_not_play(int p) {
        int64_t size = unseen(p) + held_known(p);
        if (!infer || size == 0) return;
        Designs forbidden = t.wild;
        forbidden |= t.suit[suit];
        if (!declared) forbidden |= t.rank[top_rank];
        if (size == 1) forbidden.remove(t.no_win);  // E9: a last card that cannot win was not playable
        for (Part& g : groups[p]) g.forbidden |= forbidden;
    }

    void lose(int p, int d) {
        if (known[p][d] > 0)
            --known[p][d];
        else
            remove_design(p, d);
    }

    void blur(int p) {
        add(p, held_known(p));
        std::fill(known[p].begin(), known[p].end(), 0);
    }
};

// The interned words the reading compares (made once).
#define CARDROOM_KNOW_WORD(name) baebae_py_word_##name()
#define CARDROOM_KNOW_DEFINE(name)                                                             \
    inline PyObject* baebae_py_word_##name() {                                                 \
        static PyObject* made = PyUnicode_InternFromString(#name); /* never freed */          \
        return made;                                                                           \
    }
CARDROOM_KNOW_DEFINE(t)
CARDROOM_KNOW_DEFINE(p)
CARDROOM_KNOW_DEFINE(round)
CARDROOM_KNOW_DEFINE(hands)
CARDROOM_KNOW_DEFINE(starter)
CARDROOM_KNOW_DEFINE(suit)
CARDROOM_KNOW_DEFINE(draw)
CARDROOM_KNOW_DEFINE(forced)
CARDROOM_KNOW_DEFINE(pass)
CARDROOM_KNOW_DEFINE(play)
CARDROOM_KNOW_DEFINE(card)
CARDROOM_KNOW_DEFINE(under)
CARDROOM_KNOW_DEFINE(declare)
CARDROOM_KNOW_DEFINE(effect)
CARDROOM_KNOW_DEFINE(op)
CARDROOM_KNOW_DEFINE(peek)
CARDROOM_KNOW_DEFINE(who)
CARDROOM_KNOW_DEFINE(cards)
CARDROOM_KNOW_DEFINE(move)
CARDROOM_KNOW_DEFINE(from)
CARDROOM_KNOW_DEFINE(to)
CARDROOM_KNOW_DEFINE(why)
CARDROOM_KNOW_DEFINE(swap)
CARDROOM_KNOW_DEFINE(discard)

inline PyObject* field(PyObject* event, PyObject* key) {
    PyObject* value = PyDict_GetItemWithError(event, key);  // borrowed
    if (value == nullptr) {
        if (PyErr_Occurred()) throw py::error_already_set();
        throw std::invalid_argument("a BAEBAE event without its field " + py::cast<std::string>(py::handle(key)));
    }
    return value;
}

inline bool is_word(PyObject* value, PyObject* word) {
    if (value == word) return true;  // both interned: the same object, the common case
    if (!PyUnicode_Check(value) || PyUnicode_CHECK_INTERNED(value)) return false;  // interned and another
    return PyUnicode_Compare(value, word) == 0;
}

inline int int_of(PyObject* value) {
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    return static_cast<int>(v);
}

inline int suit_of(PyObject* text) {
    static const char* const SUITS = "CDHS";
    std::string s = py::cast<std::string>(py::handle(text));
    for (int k = 0; k < 4; ++k)
        if (s.size() == 1 && s[0] == SUITS[k]) return k;
    throw std::invalid_argument("a BAEBAE event with an unknown suit " + s);
}

// What ``seat`` knows, as determinize.knowledge reads it (the designs of the pool and the
// known cards in the order of their keys, as native.py's native_knowledge gives them). With
// ``rec``, the other seats' plays the search's inference judges are told to it as well
// (baebae_infer.hpp).
inline SeatKnowledge read(const baebae_py::Core& core, const Tables& t, int seat, infer::Recorder* rec = nullptr) {
    const Game& g = core.g;
    const Program& prog = *g.prog;
    if (seat < 0 || seat >= g.n) throw py::value_error("seat must be 0 to " + std::to_string(g.n - 1));
    Reader r(t, g.n, seat, g.rules.draw_when_able);
    auto design = [&t](PyObject* text) {
        Py_ssize_t size = 0;
        const char* chars = PyUnicode_AsUTF8AndSize(text, &size);
        if (chars == nullptr) throw py::error_already_set();
        auto found = t.design_of.find(std::string(chars, static_cast<size_t>(size)));
        if (found == t.design_of.end()) throw std::invalid_argument("a BAEBAE event names a card not in the deck");
        return found->second;
    };
    bool swap_pair = false;
    bool last_draw = false, last_forced = false;
    int last_p = -1;
    PyObject* log = core.log.ptr();
    Py_ssize_t size = PyList_GET_SIZE(log);
    for (Py_ssize_t i = core.round_start; i < size; ++i) {
        PyObject* e = PyList_GET_ITEM(log, i);
        PyObject* t_ = field(e, CARDROOM_KNOW_WORD(t));
        bool was_draw = false, was_forced = false;
        int p_now = -1;
        if (is_word(t_, CARDROOM_KNOW_WORD(round))) {
            PyObject* hands = field(e, CARDROOM_KNOW_WORD(hands));
            for (int s = 0; s < g.n; ++s) {
                r.groups[s].clear();
                if (s != seat)
                    r.groups[s].push_back(Part{Designs(t.designs), static_cast<int64_t>(PyObject_Length(PyList_GET_ITEM(hands, s)))});
            }
            r.top_rank = prog.designs[design(field(e, CARDROOM_KNOW_WORD(starter)))].rank;
            r.suit = suit_of(field(e, CARDROOM_KNOW_WORD(suit)));
            r.declared = false;
            if (rec) rec->round();
        } else if (is_word(t_, CARDROOM_KNOW_WORD(draw))) {
            int p = int_of(field(e, CARDROOM_KNOW_WORD(p)));
            bool forced = PyObject_IsTrue(field(e, CARDROOM_KNOW_WORD(forced)));
            if (rec) rec->reset(p);
            if (p != seat) {
                if (!forced) r.could_not_play(p);  // a draw at the start of a turn: nothing to play (E5)
                r.add(p, 1);
            }
            was_draw = true, was_forced = forced, p_now = p;
        } else if (is_word(t_, CARDROOM_KNOW_WORD(pass))) {
            int p = int_of(field(e, CARDROOM_KNOW_WORD(p)));
            bool after_draw = last_draw && last_p == p && !last_forced;
            if (p != seat && !after_draw) r.could_not_play(p);  // passing with nothing to draw, nor to play
        } else if (is_word(t_, CARDROOM_KNOW_WORD(play))) {
            int p = int_of(field(e, CARDROOM_KNOW_WORD(p)));
            int d = design(field(e, CARDROOM_KNOW_WORD(card)));
            if (p != seat) r.lose(p, d);
            PyObject* under = PyDict_GetItemWithError(e, CARDROOM_KNOW_WORD(under));
            if (under == nullptr && PyErr_Occurred()) throw py::error_already_set();
            bool on_top = under == nullptr || !PyObject_IsTrue(under);
            if (rec && p != seat) {
                if (on_top && !(last_draw && last_p == p)) rec->play(p, d, r.top_rank, r.suit, r.declared);
                else rec->gone(p, d);  // under another card, or the card just drawn: not a choice judged
            }
            if (on_top) {
                const Design& top = prog.designs[d];
                r.top_rank = top.rank, r.suit = top.suit, r.declared = false;
            }
        } else if (is_word(t_, CARDROOM_KNOW_WORD(declare))) {
            r.suit = suit_of(field(e, CARDROOM_KNOW_WORD(suit)));
            r.declared = true;
            if (rec) {
                int p = int_of(field(e, CARDROOM_KNOW_WORD(p)));
                if (p != seat) rec->declare(p, r.suit);
            }
        } else if (is_word(t_, CARDROOM_KNOW_WORD(effect))) {
            PyObject* op = PyDict_GetItemWithError(e, CARDROOM_KNOW_WORD(op));
            if (op == nullptr && PyErr_Occurred()) throw py::error_already_set();
            if (op != nullptr && is_word(op, CARDROOM_KNOW_WORD(peek)) &&
                int_of(field(e, CARDROOM_KNOW_WORD(p))) == seat) {
                int other = int_of(field(e, CARDROOM_KNOW_WORD(who)));
                std::vector<int64_t>& mine = r.known[other];
                std::fill(mine.begin(), mine.end(), 0);
                PyObject* cards = field(e, CARDROOM_KNOW_WORD(cards));
                for (Py_ssize_t k = 0; k < PyList_GET_SIZE(cards); ++k) ++mine[design(PyList_GET_ITEM(cards, k))];
                r.groups[other].clear();
            }
        } else if (is_word(t_, CARDROOM_KNOW_WORD(move))) {
            int src = int_of(field(e, CARDROOM_KNOW_WORD(from)));
            PyObject* to = field(e, CARDROOM_KNOW_WORD(to));
            PyObject* moved = field(e, CARDROOM_KNOW_WORD(cards));
            Py_ssize_t count = PyList_GET_SIZE(moved);
            bool to_discard = PyUnicode_Check(to) && is_word(to, CARDROOM_KNOW_WORD(discard));
            int dst = to_discard ? -1 : int_of(to);
            auto each = [&](auto&& f) {
                for (Py_ssize_t k = 0; k < count; ++k) f(design(PyList_GET_ITEM(moved, k)));
            };
            if (rec) {  // a hand that gave or got cards by an action: its earlier plays are not judged
                rec->reset(src);
                if (!to_discard) rec->reset(dst);
            }
            if (is_word(field(e, CARDROOM_KNOW_WORD(why)), CARDROOM_KNOW_WORD(swap))) {  // a's hand to b, then b's to a
                if (!swap_pair) {
                    std::swap(r.known[src], r.known[dst]);
                    std::swap(r.groups[src], r.groups[dst]);
                }
                swap_pair = !swap_pair;
                if (src == seat) {  // the seat saw its old hand go to the other player
                    std::fill(r.known[dst].begin(), r.known[dst].end(), 0);
                    each([&](int d) { ++r.known[dst][d]; });
                    r.groups[dst].clear();
                }
            } else if (to_discard) {
                if (src != seat) each([&](int d) { r.lose(src, d); });
            } else if (src == seat) {
                each([&](int d) { ++r.known[dst][d]; });
            } else if (dst == seat) {
                each([&](int d) { r.lose(src, d); });
            } else {
                r.blur(src);
                r.remove_any(src, count);
                r.add(dst, count);
            }
        }
        last_draw = was_draw, last_forced = was_forced, last_p = p_now;
    }
    std::fill(r.known[seat].begin(), r.known[seat].end(), 0);
    // The pool: every card of the deck but the seat's hand, the discard pile and the known ones.
    std::vector<int64_t> pool(t.designs, 0);
    for (int d = 0; d < t.designs; ++d) pool[d] = prog.copies[d];
    g.hands[seat].each([&](int pid) { --pool[prog.card_of[pid]]; });
    for (int pid : g.discard) --pool[prog.card_of[pid]];
    for (int s = 0; s < g.n; ++s)
        for (int d = 0; d < t.designs; ++d) pool[d] -= r.known[s][d];
    SeatKnowledge out;
    out.seat = seat;
    int64_t hidden = 0;
    for (int d : t.by_key)
        for (int64_t k = 0; k < pool[d]; ++k) out.pool.push_back(d), ++hidden;
    int64_t places = static_cast<int64_t>(g.stock.size());
    for (int s = 0; s < g.n; ++s) {
        out.known.emplace_back();
        for (int d : t.by_key)
            for (int64_t k = 0; k < r.known[s][d]; ++k) out.known.back().push_back(d);
        out.groups.emplace_back();
        if (s == seat) continue;
        for (const Part& part : r.groups[s]) {
            if (part.count <= 0) continue;
            Group gr;
            if (!part.forbidden.none()) {
                gr.forbidden.assign(static_cast<size_t>(t.designs), 0);
                for (int d = 0; d < t.designs; ++d) gr.forbidden[d] = part.forbidden.has(d);
            }
            gr.count = static_cast<int>(part.count);
            places += part.count;
            out.groups.back().push_back(std::move(gr));
        }
    }
    if (places != hidden)
        throw std::logic_error("seat " + std::to_string(seat) + " sees " + std::to_string(places) + " hidden places, " +
                               std::to_string(hidden) + " cards");
    return out;
}

// As native.py's native_knowledge: (seat, known designs per seat, groups per seat as
// (forbidden designs, count), the pool's designs).
inline py::tuple to_python(const SeatKnowledge& k) {
    py::list known, groups, pool;
    for (const auto& mine : k.known) {
        py::list designs;
        for (int d : mine) designs.append(d);
        known.append(designs);
    }
    for (const auto& seat_groups : k.groups) {
        py::list parts;
        for (const Group& gr : seat_groups) {
            py::list forbidden;
            for (size_t d = 0; d < gr.forbidden.size(); ++d)
                if (gr.forbidden[d]) forbidden.append(static_cast<int>(d));
            parts.append(py::make_tuple(forbidden, gr.count));
        }
        groups.append(parts);
    }
    for (int d : k.pool) pool.append(d);
    return py::make_tuple(k.seat, known, groups, pool);
}

}  // namespace know

inline void register_baebae_knowledge(pybind11::module_& m) {
    namespace py = pybind11;
    m.def(
        "baebae_knowledge",
        [](py::handle state, int seat) {
            const baebae_py::Core& core = baebae_py::core_of(state);
            return know::to_python(know::read(core, know::tables_for(core.compiled), seat));
        },
        py::arg("state"), py::arg("seat"),
        "What ``seat`` knows of the hidden cards, read in C++ from its view of the round's events "
        "(determinize.knowledge's, as native_knowledge gives it).");
    m.def(
        "baebae_observed",
        [](py::handle state, int seat) {
            const baebae_py::Core& core = baebae_py::core_of(state);
            infer::Recorder rec(core.g.n);
            know::read(core, know::tables_for(core.compiled), seat, &rec);
            return infer::to_python(rec.decisions());
        },
        py::arg("state"), py::arg("seat"),
        "The other seats' plays ``seat`` saw that the search's inference judges (baebae_infer.hpp): "
        "(kind: 0 a play, 1 a suit declared; player, design, top rank, suit, declared, designs played since) each.");
    m.def(
        "baebae_infer_chances",
        [](py::handle state, int seat, py::handle world, double epsilon) {
            const baebae_py::Core& core = baebae_py::core_of(state);
            const baebae_py::Core& w = baebae_py::core_of(world);
            if (!(epsilon > 0 && epsilon <= 1)) throw py::value_error("epsilon must be more than 0 and at most 1");
            if (w.g.prog != core.g.prog || w.g.n != core.g.n)
                throw py::value_error("the world is not a world of this game: another deck or player count");
            infer::Recorder rec(core.g.n);
            know::read(core, know::tables_for(core.compiled), seat, &rec);
            std::vector<infer::Decision> found = rec.decisions();
            Heuristic judge{PyRandom::splitmix(0)};
            py::list out;
            for (const infer::Decision& d : found)
                out.append(py::make_tuple(d.seat, d.design, infer::chance(d, w.g, epsilon, judge)));  // design -1: a suit declared
            return out;
        },
        py::arg("state"), py::arg("seat"), py::arg("world"), py::arg("epsilon"),
        "The opponent model's chance of each judged play (baebae_observed) on ``world``.");
}

}  // namespace baebae
}  // namespace cardroom
