// cardroom.native._core: the native engine's Python face (pybind11).
//
// What it holds: the chance stream (chance.hpp) for tests, Baha's rules (baha.hpp) as a core
// object that the Python class cardroom.games.baha.native.NativeBahaState drives through the State
// protocol, and batches of whole games played without Python in the loop. Events are built
// here as the same dicts the Python engine writes, key for key in the same order.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <structmember.h>

#include <array>
#include <utility>
#include <string>
#include <vector>

#include "cardroom/baebae_module.hpp"
#include "cardroom/baebae_restricted.hpp"
#include "cardroom/baebae_tables.hpp"
#include "cardroom/baebae_vector.hpp"
#include "cardroom/baebae_knowledge.hpp"
#include "cardroom/ismcts_baebae.hpp"
#include "cardroom/baha.hpp"
#include "cardroom/baha_batch.hpp"
#include "cardroom/baha_heuristic.hpp"
#include "cardroom/baha_tables.hpp"
#include "cardroom/baha_vector.hpp"
#include "cardroom/chance.hpp"
#include "cardroom/core_type.hpp"
#include "cardroom/fields.hpp"
#include "cardroom/ismcts_baha.hpp"
#include "cardroom/rules_py.hpp"

namespace py = pybind11;
using namespace cardroom;

namespace {

// -- the chance stream, for tests ----------------------------------------------------------

std::vector<uint32_t> words_of(const py::int_& value) {
    // abs(value) as 32-bit words, least significant first (what CPython seeds a Random with).
    py::object magnitude = py::reinterpret_steal<py::object>(PyNumber_Absolute(value.ptr()));
    std::vector<uint32_t> words;
    py::int_ mask(0xffffffffULL);
    py::int_ zero(0);
    do {
        words.push_back(py::cast<uint32_t>(magnitude & mask));
        magnitude = magnitude.attr("__rshift__")(32);
    } while (!magnitude.equal(zero));
    return words;
}

PyRandom random_from(const py::int_& seed) {
    std::vector<uint32_t> words = words_of(seed);
    return PyRandom(words.data(), static_cast<int>(words.size()));
}

// -- Baha's events, as the Python engine writes them ---------------------------------------

struct Texts {
    std::array<py::str, baha::DECK> card;
    py::str t, n, dealer, hands, leftover, draw_pile, pass_, p, card_, from, to, cards, winner, horns,
        hand, moon, points, totals, revealed, leader;
    py::str hand_t, pass_pick_t, pass_t, play_t, trick_t, draw_t, take_t, score_t, end_t;
    py::str right, left, none;

    Texts() {
        static const char* letters = "PRTO";
        for (int c = 0; c < baha::DECK; ++c) {
            std::string text = std::to_string(c % baha::VALUES + 1) + letters[c / baha::VALUES];
            card[c] = py::str(text);
        }
        t = py::str("t"), n = py::str("n"), dealer = py::str("dealer"), hands = py::str("hands");
        leftover = py::str("leftover"), draw_pile = py::str("draw_pile"), pass_ = py::str("pass");
        p = py::str("p"), card_ = py::str("card"), from = py::str("from"), to = py::str("to");
        cards = py::str("cards"), winner = py::str("winner"), horns = py::str("horns");
        hand = py::str("hand"), moon = py::str("moon"), points = py::str("points");
        totals = py::str("totals"), revealed = py::str("revealed"), leader = py::str("leader");
        hand_t = py::str("hand"), pass_pick_t = py::str("pass_pick"), pass_t = py::str("pass");
        play_t = py::str("play"), trick_t = py::str("trick"), draw_t = py::str("draw");
        take_t = py::str("take"), score_t = py::str("score"), end_t = py::str("end");
        right = py::str("right"), left = py::str("left"), none = py::str("none");
    }

    py::list of_mask(uint64_t mask) const {
        py::list out;
        while (mask) {
            out.append(card[baha::lowest(mask)]);
            mask &= mask - 1;
        }
        return out;
    }

    py::list of_cards(const uint8_t* cards, int size) const {
        py::list out(size);
        for (int i = 0; i < size; ++i) out[i] = card[cards[i]];
        return out;
    }

    const py::str& pass_word(int offset) const { return offset > 0 ? right : offset < 0 ? left : none; }
};

const Texts& texts() {
    static const Texts* made = new Texts();  // never freed: the strings outlive the module's users
    return *made;
}

py::list int_list(const int64_t* values, int size) {
    py::list out(size);
    for (int i = 0; i < size; ++i) out[i] = py::int_(values[i]);
    return out;
}

py::list int_list(const int* values, int size) {
    py::list out(size);
    for (int i = 0; i < size; ++i) out[i] = py::int_(values[i]);
    return out;
}

// The sink that writes the Python engine's events into a log.
struct LogSink {
    py::list& log;
    Py_ssize_t& hand_start;
    const Texts& x = texts();

    void add(py::dict&& event) { log.append(std::move(event)); }

    void hand(const baha::Game& g) {
        hand_start = static_cast<Py_ssize_t>(py::len(log));
        py::list hands(g.n);
        for (int s = 0; s < g.n; ++s) hands[s] = x.of_mask(g.hands[s]);
        py::dict e;
        e[x.t] = x.hand_t;
        e[x.n] = py::int_(g.hand_no);
        e[x.dealer] = py::int_(g.dealer);
        e[x.hands] = std::move(hands);
        e[x.leftover] = x.of_mask(g.leftover);
        e[x.draw_pile] = x.of_cards(g.pile + g.pile_head, g.pile_len);
        e[x.pass_] = x.pass_word(g.pass_offset);
        add(std::move(e));
    }
    // A three-key event {t, p, key: card} (a pick, a play, a draw: most of a game's events),
    // built on the C API: these are made at nearly every action.
    void seat_card(const py::str& type, int seat, const py::str& key, int card) {
        PyObject* e = _PyDict_NewPresized(3);
        PyObject* p = PyLong_FromLong(seat);
        bool ok = e != nullptr && p != nullptr && PyDict_SetItem(e, x.t.ptr(), type.ptr()) == 0 &&
                  PyDict_SetItem(e, x.p.ptr(), p) == 0 && PyDict_SetItem(e, key.ptr(), x.card[card].ptr()) == 0 &&
                  PyList_Append(log.ptr(), e) == 0;
        Py_XDECREF(p);
        Py_XDECREF(e);
        if (!ok) throw py::error_already_set();
    }
    void pick(int seat, int card) { seat_card(x.pass_pick_t, seat, x.card_, card); }
    void pass(int from, int to, uint64_t cards) {
        py::dict e;
        e[x.t] = x.pass_t;
        e[x.from] = py::int_(from);
        e[x.to] = py::int_(to);
        e[x.cards] = x.of_mask(cards);
        add(std::move(e));
    }
    void play(int seat, int card) { seat_card(x.play_t, seat, x.card_, card); }
    void trick(const baha::Game& g, int won, const uint8_t* cards, int size, uint64_t left) {
        uint64_t mask = 0;
        for (int i = 0; i < size; ++i) mask |= 1ULL << cards[i];
        py::dict e;
        e[x.t] = x.trick_t;
        e[x.n] = py::int_(g.tricks_done);
        e[x.winner] = py::int_(won);
        e[x.cards] = x.of_cards(cards, size);
        e[x.horns] = py::int_(g.rules.points(mask));
        e[x.leftover] = x.of_mask(left);
        add(std::move(e));
    }
    void draw(int seat, int card) { seat_card(x.draw_t, seat, x.card_, card); }
    void take(int seat, const uint8_t* cards, int size) {
        py::dict e;
        e[x.t] = x.take_t;
        e[x.p] = py::int_(seat);
        e[x.cards] = x.of_cards(cards, size);
        add(std::move(e));
    }
    void score(const baha::Game& g, const int* horns, int moon, const int* points) {
        py::list revealed(g.n);
        for (int s = 0; s < g.n; ++s) revealed[s] = x.of_mask(g.face_down[s]);
        py::dict e;
        e[x.t] = x.score_t;
        e[x.hand] = py::int_(g.hand_no);
        e[x.horns] = int_list(horns, g.n);
        e[x.moon] = moon < 0 ? py::object(py::none()) : py::object(py::int_(moon));
        e[x.points] = int_list(points, g.n);
        e[x.totals] = int_list(g.totals, g.n);
        e[x.revealed] = std::move(revealed);
        add(std::move(e));
    }
    void end(const baha::Game& g) {
        py::dict e;
        e[x.t] = x.end_t;
        e[x.totals] = int_list(g.totals, g.n);
        e[x.winner] = py::int_(g.winner);
        add(std::move(e));
    }
};

// -- Baha's core: the state the Python face drives -----------------------------------------

// Baha's rules as the core plays them, made from the Python rules whole (their options by name,
// baha.hpp's list) and the tables they imply.
baha::Rules rules_from(py::handle given) {
    baha::Rules r = rules_py::rules_from<baha::Rules>(
        {"BahaRules", "baha", "Baha's rules (cardroom.games.baha.Rules)"}, given);
    if (r.players < 2 || r.players > baha::MAX_PLAYERS)
        throw py::value_error("BahaRules: the rules' option players must be from 2 to 6, not " + std::to_string(r.players));
    r.derive();
    return r;
}

struct BahaCore {
    baha::Game g;
    CARDROOM_BAHA_CORE_MEMBERS  // the log, the history, hand_start (generated/baha_fields.hpp)

    LogSink sink() { return LogSink{log, hand_start}; }

    // What the core type (core_type.hpp) calls at each action
    static constexpr bool started() { return true; }  // baha_start deals the first hand
    bool over() const { return g.phase == baha::OVER; }
    PyObject* legal_actions() const {
        uint64_t mask = g.legal_mask();
        long base = g.phase == baha::PASS ? baha::PASS_BASE : 0;
        PyObject* out = PyList_New(baha::count(mask));
        if (out == nullptr) return nullptr;
        for (Py_ssize_t i = 0; mask; ++i, mask &= mask - 1)
            PyList_SET_ITEM(out, i, PyLong_FromLong(base + baha::lowest(mask)));  // small ints: cached
        return out;
    }
    bool is_legal(int action) const noexcept { return action >= 0 && action < baha::NUM_ACTIONS && g.is_legal(action); }
    void play(int action) {
        LogSink s = sink();
        g.apply(s, action);
    }

    void random_playout(const py::object& random) {
        auto uniform = [&random]() { return py::cast<double>(random()); };
        LogSink s = sink();
        g.random_playout(s, uniform);
    }

    // Everything copied into ``other``, a new core (a clone, made in place).
    void copy_to(BahaCore& other) const {
        other.g = g;
#define CARDROOM_BAHA_COPY(name, codec) fields::codec::copy(other.name, name);
        CARDROOM_BAHA_CORE_FIELDS(CARDROOM_BAHA_COPY)
#undef CARDROOM_BAHA_COPY
    }
};

// The codecs of Baha's fields kept in several members of the game (fields.hpp has the rest):
// each takes the whole game.
namespace baha_codecs {
using namespace cardroom::fields;

PyObject* byte_list(const uint8_t* values, int size) {
    PyObject* out = PyList_New(size);
    if (out == nullptr) return nullptr;
    for (int i = 0; i < size; ++i) PyList_SET_ITEM(out, i, PyLong_FromLong(values[i]));
    return out;
}

template <size_t N>
int read_cards(py::handle python, uint8_t (&out)[N], const Context& c) {
    py::sequence cards = py::reinterpret_borrow<py::sequence>(python);
    int size = static_cast<int>(py::len(cards));
    if (size > static_cast<int>(N)) throw py::value_error(std::string(c.name) + ": too many cards");
    for (int i = 0; i < size; ++i) out[i] = static_cast<uint8_t>(cards[i].cast<int>());
    return size;
}

// The draw pile, top first: pile from pile_head, pile_len cards.
struct DrawPile {
    static PyObject* get(const baha::Game& g, const Context&) { return byte_list(g.pile + g.pile_head, g.pile_len); }
    static void load(baha::Game& g, py::handle python, const Context& c) {
        g.pile_head = 0;
        g.pile_len = read_cards(python, g.pile, c);
    }
};

// The trick's cards in playing order: trick_len of them.
struct TrickCards {
    static PyObject* get(const baha::Game& g, const Context&) { return byte_list(g.trick, g.trick_len); }
    static void load(baha::Game& g, py::handle python, const Context& c) { g.trick_len = read_cards(python, g.trick, c); }
};

// The last trick as the view shows it ({leader, cards (texts), winner}) or None: has_last,
// last_leader, last_cards, last_winner.
struct LastTrick {
    static PyObject* get(const baha::Game& g, const Context&) {
        if (!g.has_last) Py_RETURN_NONE;
        return core_type::guarded([&]() {
            const Texts& x = texts();
            py::dict trick;
            trick[x.leader] = py::int_(g.last_leader);
            trick[x.cards] = x.of_cards(g.last_cards, g.n);
            trick[x.winner] = py::int_(g.last_winner);
            return trick.release().ptr();
        });
    }
    static void load(baha::Game& g, py::handle python, const Context& c) {
        g.has_last = !python.is_none();
        if (!g.has_last) return;
        const Texts& x = texts();
        py::dict trick = py::reinterpret_borrow<py::dict>(python);
        g.last_leader = trick[x.leader].cast<int>();
        g.last_winner = trick[x.winner].cast<int>();
        py::sequence cards = trick[x.cards];
        for (int i = 0; i < g.n && i < static_cast<int>(py::len(cards)); ++i) {
            int card = 0;
            while (card < baha::DECK && !x.card[card].equal(cards[i])) ++card;
            if (card == baha::DECK) throw py::value_error(std::string(c.name) + ": a card of no text");
            g.last_cards[i] = static_cast<uint8_t>(card);
        }
    }
};
}  // namespace baha_codecs

template <class T, size_t N>
void read_into(const std::vector<T>& values, T (&out)[N], int size, const char* what) {
    if (static_cast<int>(values.size()) != size) throw py::value_error(std::string(what) + ": wrong length");
    for (int i = 0; i < size; ++i) out[i] = values[i];
}

void start_core(BahaCore& core, const baha::Rules& rules, const std::string& seed, int64_t hand,
                const std::vector<int64_t>& totals, const py::object& dealt) {
    baha::Game& g = core.g;
    const int players = rules.players;
    g.rules = rules;
    g.n = players;
    g.seed = seed;
    read_into(totals, g.totals, players, "totals");
    baha::Game::Dealt deal{};
    bool given = !dealt.is_none();
    if (given) {
        auto parts = dealt.cast<std::tuple<std::vector<uint64_t>, uint64_t, std::vector<int>, int>>();
        read_into(std::get<0>(parts), deal.hands, players, "deal hands");
        deal.leftover = std::get<1>(parts);
        const std::vector<int>& pile = std::get<2>(parts);
        deal.pile_len = static_cast<int>(pile.size());
        for (int i = 0; i < deal.pile_len; ++i) deal.pile[i] = static_cast<uint8_t>(pile[i]);
        g.dealer = std::get<3>(parts);
    } else {
        g.choose_first_dealer();
    }
    g.hand_no = hand - 1;
    LogSink s = core.sink();
    g.begin_hand(s, given ? &deal : nullptr);
}

// -- the state object: BahaCore as a plain CPython type (core_type.hpp) --------------------

struct CoreTraits {
    using Core = BahaCore;
    static constexpr const char* name = "cardroom.native._core.BahaCore";
    static constexpr const char* doc = "Baha's state on the native engine (subclassed by NativeBahaState).";
    static constexpr const char* needed = "a native Baha state is needed";
    static constexpr const char* not_started = "the native Baha state has not been started (baha_start)";
    static constexpr std::array<core_type::Member, 0> extra{};  // rules, seed and origin only
};
using State = core_type::CoreType<CoreTraits>;

BahaCore& core_of(py::handle state) { return State::core_of(state); }

#define CARDROOM_BAHA_GETTER(...) CARDROOM_CORE_GETTER(CoreTraits, baha_codecs, __VA_ARGS__)
CARDROOM_BAHA_FIELDS(CARDROOM_BAHA_GETTER)
#undef CARDROOM_BAHA_GETTER

// Every field of the table, set from the Python engine's state (a determinized world made by the
// reference), each attribute read by name; the face sets its own (rules, seed, origin).
void load_core(py::handle state, py::handle reference) {
    BahaCore& c = core_of(state);
    baha::Game& g = c.g;
#define CARDROOM_BAHA_LOAD(name, getter, codec, value, values, doc) \
    baha_codecs::codec::load(value, reference.attr(#name), fields::Context{#name, g.n, state.ptr(), values});
    CARDROOM_BAHA_FIELDS(CARDROOM_BAHA_LOAD)
#undef CARDROOM_BAHA_LOAD
    g.seed = py::str(reference.attr("seed"));  // the game's chance keys take the seed's text
}

// -- batches: whole games with no Python in the loop ---------------------------------------

// One seat of simulate's agents, seeded as `cardroom simulate` seeds it (random.Random(seed)):
// the random agent (agents/random_agent.py: randrange(len(legal)) over the legal actions in
// ascending order) or the heuristic (agents/baha_heuristic.py, baha_heuristic.hpp).
struct AgentSeat {
    bool heuristic;
    baha::Heuristic player;  // its rng is the random agent's too

    int act(const baha::Game& g) {
        if (heuristic) return player.act(g);
        uint64_t legal = g.legal_mask();
        int k = static_cast<int>(player.rng.randbelow(static_cast<uint64_t>(baha::count(legal))));
        int card = nth_bit(legal, k);
        return g.phase == baha::PASS ? card + baha::PASS_BASE : card;
    }
};

// A fast uniform policy for play-outs that need not be simulate's agents: one SplitMix64
// stream per game (seeded from the game's seed), a choice by Lemire's multiply-shift.
struct FastSeat {
    uint64_t state;
    int act(const baha::Game& g) {
        uint64_t legal = g.legal_mask();
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        int k = static_cast<int>((static_cast<unsigned __int128>(z >> 32) * baha::count(legal)) >> 32);
        int card = nth_bit(legal, k);
        return g.phase == baha::PASS ? card + baha::PASS_BASE : card;
    }
};


// What a batch returns per game; ``points`` holds every scored hand's points, game after game
// (``deals`` of them for each game, ``players`` each).
struct Played {
    std::vector<int64_t> totals;  // games x players
    std::vector<int> winners;
    std::vector<int> hands;
    std::vector<int64_t> actions;
    std::vector<int> moons;
    std::vector<int> deals;
    std::vector<int> points;
};

// Games seed, seed + 1, ... of simulate's agents (``heuristic[s]``: seat s plays the heuristic,
// else the random agent), seeded as cardroom simulate seeds them (seat s of the game with seed
// k: k * 1000 + s), each played to its end or to max_actions. With ``exact`` false, every seat
// plays FastSeat's stream instead: the same deals, other choices, without seeding four
// Mersenne Twisters a game. Never inlined: the benchmark counts its instructions by its name.
[[gnu::noinline]] void play_games(const baha::Rules& rules, int64_t first_seed, int64_t games, int64_t max_actions, bool exact,
                const std::vector<bool>& heuristic, Played& out) {
    int n = rules.players;
    out.totals.assign(static_cast<size_t>(games) * n, 0);
    out.winners.assign(games, -1);
    out.hands.assign(games, 0);
    out.actions.assign(games, 0);
    out.moons.assign(games, 0);
    out.deals.assign(games, 0);
    out.points.clear();
    struct Counter : baha::Quiet {
        std::vector<int>* points;
        int moons = 0;
        int deals = 0;
        void score(const baha::Game& g, const int*, int moon, const int* hand_points) {
            moons += moon >= 0;
            deals += 1;
            points->insert(points->end(), hand_points, hand_points + g.n);
        }
    };
    std::vector<AgentSeat> seats;
    for (int64_t i = 0; i < games; ++i) {
        int64_t seed = first_seed + i;
        baha::Game g;
        g.rules = rules;
        g.n = n;
        g.seed = std::to_string(seed);
        g.choose_first_dealer();
        Counter sink;
        sink.points = &out.points;
        g.begin_hand(sink, nullptr);
        int64_t actions = 0;
        auto play = [&](auto&& seat_of) {
            while (g.phase != baha::OVER && actions < max_actions) {
                g.apply(sink, seat_of(g.turn).act(g));
                ++actions;
            }
        };
        if (exact) {
            seats.clear();
            AgentRngs rngs(seed, rules.stream);
            for (int s = 0; s < n; ++s) seats.push_back(AgentSeat{heuristic[s], baha::Heuristic{rngs(s)}});
            play([&](int seat) -> AgentSeat& { return seats[seat]; });
        } else {
            FastSeat one{static_cast<uint64_t>(seed) * 0xd1b54a32d192ed03ULL};  // every seat draws from it
            play([&](int) -> FastSeat& { return one; });
        }
        for (int s = 0; s < n; ++s) out.totals[static_cast<size_t>(i) * n + s] = g.totals[s];
        out.winners[i] = g.winner;
        out.hands[i] = static_cast<int>(g.hand_no);
        out.actions[i] = actions;
        out.moons[i] = sink.moons;
        out.deals[i] = sink.deals;
    }
}

// The batch's binding (core_type.hpp's register_batch): play_games, its lists made by
// baha_batch.hpp (BatchGames' lists, or the flat lists themselves).
struct BatchTraits {
    using Bound = baha::Rules;
    using Played = ::Played;
    static const baha::Rules& rules_of(const baha::Rules& rules) { return rules; }
    static constexpr auto play = play_games;
    static py::dict lists(const Played& out, int players, bool flat) { return baha::batch_lists(out, players, flat); }
};

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "Cardroom's native engine: the chance stream, Baha's rules, batches of games.";

    // The chance stream
    m.def(
        "blake2b",
        [](const py::bytes& data, int size) {
            std::string text = data;
            uint8_t out[64];
            blake2b(text.data(), text.size(), out, size);
            return py::bytes(reinterpret_cast<const char*>(out), static_cast<size_t>(size));
        },
        py::arg("data"), py::arg("size"));
    py::class_<PyRandom>(m, "Random")
        .def(py::init(&random_from), py::arg("seed"))
        .def("getrandbits", &PyRandom::getrandbits)
        .def("randbelow", &PyRandom::randbelow)
        .def("random", &PyRandom::random)
        .def("shuffle",
             [](PyRandom& r, std::vector<int64_t> values) {
                 r.shuffle(values.data(), values.size());
                 return values;
             })
        .def("sample",
             [](PyRandom& r, const std::vector<int64_t>& values, size_t k) {
                 if (k > values.size()) throw py::value_error("sample larger than population");
                 return r.sample(values.data(), values.size(), k);
             })
        .def("choice", [](PyRandom& r, const std::vector<int64_t>& values) {
            if (values.empty()) throw py::index_error("cannot choose from an empty sequence");
            return values[r.randbelow(values.size())];
        });
    m.def("chance_rng", [](const std::string& text, bool split) {
        return chance_rng(text, split ? Stream::SplitMix : Stream::Twister);
    }, py::arg("text"), py::arg("split") = false);
    m.def("agent_rng", [](int64_t seed, int seat, bool split) {
        return agent_rng(seed, seat, split ? Stream::SplitMix : Stream::Twister);
    }, py::arg("seed"), py::arg("seat"), py::arg("split") = false);
    m.def(
        "baha_deck",
        [](const std::string& text, bool split) {
            uint8_t deck[52];
            baha_deck_order(text, deck, split ? Stream::SplitMix : Stream::Twister);
            return std::vector<int>(deck, deck + 52);
        },
        py::arg("text"), py::arg("split") = false);

    // Baha's state: the raw type above, and its slower calls through pybind11
    State::add(m, "BahaCore", {}, {CARDROOM_BAHA_FIELDS(CARDROOM_CORE_GETSET)},
               {get_turn, get_totals, get_hand_no, "The hand being played, from 1."});
    // Baha's rules as one object, made from the Python rules whole (rules_from), once per rules
    // (games/baha/native.py's core_rules), and taken whole by every function below that plays Baha
    py::class_<baha::Rules> baha_rules(m, "BahaRules", "Baha's rules as the core plays them (cardroom.games.baha.native.core_rules).");
    baha_rules.def(py::init(&rules_from), py::arg("rules"));
    rules_py::bind_options<baha::Rules>(baha_rules, [](const baha::Rules& r) -> const baha::Rules& { return r; });
    m.def(
        "baha_start",
        [](py::handle state, const baha::Rules& rules, const std::string& seed, int64_t hand,
           const std::vector<int64_t>& totals, const py::object& dealt) {
            start_core(core_of(state), rules, seed, hand, totals, dealt);
        },
        py::arg("state"), py::arg("rules"), py::arg("seed"), py::arg("hand"), py::arg("totals"), py::arg("dealt"));
    m.def("baha_load", &load_core, py::arg("state"), py::arg("reference"));
    m.def("baha_random_playout", [](py::handle state, const py::object& random) {
        core_of(state).random_playout(random);
        State::changed(state);
    });

    // Baha's heuristic player, for the differential tests
    py::class_<baha::Heuristic>(m, "BahaHeuristic")
        .def(py::init([](const py::int_& seed, bool split) {
                 if (!split) return baha::Heuristic{random_from(seed)};
                 std::string text = py::str(seed);  // engine.seeded_rng(seed, "splitmix")
                 return baha::Heuristic{PyRandom::splitmix(key_hash(text.data(), text.size()))};
             }),
             py::arg("seed"), py::arg("split") = false)
        .def("act", [](baha::Heuristic& h, py::handle state) {
            const baha::Game& g = core_of(state).g;
            if (g.turn < 0) throw py::value_error("the game is over: nobody is to act");
            return h.act(g);
        })
        .def("random", [](baha::Heuristic& h) { return h.rng.random(); });

    cardroom::baebae_py::register_baebae(m);
    tables::register_table_games<cardroom::baebae_tables::TablesTraits>(m, "baebae_table_games");  // tables.hpp
    cardroom::baebae_restricted::register_baebae_restricted(m);
    ismcts::register_search_options(m);  // one object of options for every game's search
    cardroom::baebae::register_baebae_ismcts(m);  // BAEBAE's native ISMCTS and determinization (ismcts_baebae.hpp)

    // Batches
    core_type::register_batch<BatchTraits>(m, "baha_games");  // core_type.hpp
    tables::register_table_games<baha::TablesTraits>(m, "baha_table_games");  // tables.hpp

    baha::register_baha_ismcts(m, core_of);  // Baha's native ISMCTS and determinization (ismcts_baha.hpp)

    baha_vector::register_baha_vector(
        m, [](py::handle state) -> const baha::Game& { return core_of(state).g; },
        [](py::handle state, const baha::Game& g) {
            BahaCore& core = core_of(state);
            if (core.g.n != g.n) throw py::value_error("a state of another table size");
            core.g = g;
            core.log = py::list();
            core.history = py::list();
            core.hand_start = 0;
            State::changed(state);  // the position changed
        });
    baebae_vector::register_baebae_vector(m);  // BAEBAE's vector environment (baebae_vector.hpp)
    baebae::register_baebae_knowledge(m);  // a BAEBAE seat's knowledge read in C++ (baebae_knowledge.hpp)
}
