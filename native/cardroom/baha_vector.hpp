// Baha's vector environment in C++: N games stepped in one call, observations written straight
// into the caller's float32 buffer, the GIL released while the games run.
//
// The observation is games/baha/observation.py's, entry for entry and bit for bit (the same
// float32 values: each scaled count is divided in double, then rounded to float, as Python's
// struct packing rounds it); the rewards, episodes, seeds and opponents are those of
// cardroom.rl's Python vector env (rl/vector.py), whose single-agent rows are
// CardroomGymEnv's own episodes. tests/native/test_vector_native.py steps both side by side.
//
// Two modes. Single-agent: one learner seat; every other seat is a bot inside the batch
// (random or heuristic, seeded per game as the Gymnasium env seeds cardroom.agents.make), and
// a step plays the learner's action then the bots' until the learner is to act again. Self-play:
// every seat is an agent, a step takes the action of whichever seat is to act, and the
// rewards are every seat's. Auto-reset on the same step: a row whose episode ended holds the
// next game's first observation, the ended one is in the final-observation buffer.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <string>
#include <vector>

#include "baha.hpp"
#include "baha_heuristic.hpp"
#include "chance.hpp"

namespace cardroom {
namespace baha {

// Where each slice of the observation starts (observation.py's _Offsets for n players).
struct Layout {
    int n, hand, picks, passed, received, played, taken, trick, voids, pass_direction, phase, to_act, leader,
        led, bits, horns, totals, hand_sizes, tricks, leftover, draw_pile, size;

    explicit Layout(int players) : n(players) {
        int at = 0;
        auto add = [&at](int width) {
            int start = at;
            at += width;
            return start;
        };
        hand = add(DECK), picks = add(DECK), passed = add(DECK), received = add(DECK);
        played = add(DECK), taken = add(DECK), trick = add(n * DECK), voids = add(n * 4);
        pass_direction = add(3), phase = add(2), to_act = add(n), leader = add(n), led = add(4);
        bits = at;
        horns = add(n), totals = add(n), hand_sizes = add(n), tricks = add(1), leftover = add(1);
        draw_pile = add(1);
        size = at;
    }
};

inline int seat_from(int seat, int other, int n) { return ((other - seat) % n + n) % n; }

// BahaObservation.encode: what ``seat`` may know of ``g``, into out[0:layout.size].
inline void encode(const Game& g, const Layout& at, int seat, float* out) {
    const int n = g.n;
    std::memset(out, 0, sizeof(float) * at.bits);
    auto cards = [out](int start, uint64_t mask) {
        for (; mask; mask &= mask - 1) out[start + lowest(mask)] = 1.0f;
    };
    cards(at.hand, g.hands[seat]);
    cards(at.picks, g.picks[seat]);
    cards(at.passed, g.passed[seat]);
    cards(at.received, g.received[seat]);
    cards(at.played, g.played);
    cards(at.taken, g.taken[seat]);
    for (int i = 0; i < g.trick_len; ++i) out[at.trick + seat_from(seat, g.leader + i, n) * DECK + g.trick[i]] = 1.0f;
    for (int k = 0; k < n; ++k) {
        int voids = g.voids[(seat + k) % n];
        for (int c = 0; c < 4; ++c)
            if (voids >> c & 1) out[at.voids + 4 * k + c] = 1.0f;
    }
    out[at.pass_direction + (g.pass_offset == 1 ? 0 : g.pass_offset == -1 ? 1 : 2)] = 1.0f;
    if (g.phase != OVER) {
        out[at.phase + (g.phase == PLAY)] = 1.0f;
        out[at.leader + seat_from(seat, g.leader, n)] = 1.0f;
    }
    if (g.turn >= 0) out[at.to_act + seat_from(seat, g.turn, n)] = 1.0f;
    if (g.trick_len) out[at.led + colour_of(g.trick[0])] = 1.0f;
    const Rules& rules = g.rules;
    const double per_hand = rules.points_per_hand;
    const double top = static_cast<double>(rules.target + rules.points_per_hand);
    for (int k = 0; k < n; ++k) {
        int s = (seat + k) % n;
        out[at.horns + k] = static_cast<float>(rules.points(g.taken[s] & ~g.face_down[s]) / per_hand);
        out[at.totals + k] = static_cast<float>(static_cast<double>(g.totals[s]) / top);
        out[at.hand_sizes + k] = static_cast<float>(count(g.hands[s]) / static_cast<double>(rules.hand_size));
    }
    out[at.tricks] = static_cast<float>(g.tricks_done / static_cast<double>(DECK / n));
    out[at.leftover] = static_cast<float>(count(g.leftover) / 4.0);
    out[at.draw_pile] = static_cast<float>(g.pile_len / static_cast<double>(DECK));
}

// The int8 mask of the legal actions of the seat to act.
inline void write_mask(const Game& g, int8_t* out) {
    std::memset(out, 0, NUM_ACTIONS);
    int base = g.phase == PASS ? PASS_BASE : 0;
    for (uint64_t legal = g.legal_mask(); legal; legal &= legal - 1) out[base + lowest(legal)] = 1;
}

// A bot of the batch: cardroom.agents' random agent (randrange over the legal actions, in
// ascending order) or the heuristic, on its seed's generator (engine.seeded_rng, the rules' stream).
struct Bot {
    bool heuristic = false;
    Heuristic player{PyRandom::from_int(0)};

    int act(const Game& g) {
        if (heuristic) return player.act(g);
        uint64_t legal = g.legal_mask();
        int k = static_cast<int>(player.rng.randbelow(static_cast<uint64_t>(count(legal))));
        return (g.phase == PASS ? PASS_BASE : 0) + nth_bit(legal, k);
    }
};

constexpr uint64_t SEED_BOUND = 1ULL << 63;  // table.Seeds: randrange(2**63)
constexpr uint64_t MAX_SEED = SEED_BOUND - 1;  // agents.MAX_SEED

// What one row of the batch needs beside its game: rl.table.Seeds, DealRewards, the bots.
struct Row {
    Game g;
    PyRandom seeds{PyRandom::from_int(0)};
    std::vector<Bot> bots;  // one a seat in single-agent mode (the learner's unused), else none
    int64_t start[MAX_PLAYERS] = {0};  // totals when the last deal's rewards were given
    int64_t deal = 0, first = 0, deals = 0, steps = 0;
    double pending = 0;  // the learner's rewards of deals the bots ended before its first move
    bool over = false;
};

// The options of the batch (rl.vector_env's).
struct Config {
    Rules rules;
    bool self_play = false;
    int seat = 0;             // the learner (single-agent)
    bool heuristic[MAX_PLAYERS] = {false};  // each bot seat: heuristic, else random
    int64_t deals = 0;        // episode length in deals; 0 for the whole game
    int64_t max_steps = 0;    // 0 for no limit
    bool zero_sum = false;
};

// The caller's buffers (numpy arrays held by the Python face while the batch lives).
struct Buffers {
    float* obs;
    int8_t* mask;
    float* rewards;  // N (single-agent) or N x players (self-play)
    bool* terminated;
    bool* truncated;
    int64_t* to_act;
    float* final_obs;
};

class Vector {
  public:
    Vector(const Config& config, int num_envs) : config_(config), layout_(config.rules.players), rows_(num_envs) {
        if (!config.self_play)
            for (Row& row : rows_) row.bots.resize(config.rules.players);  // 2.5 KB a bot: only where played
    }

    int size() const { return layout_.size; }
    int num_envs() const { return static_cast<int>(rows_.size()); }
    void bind(const Buffers& buffers) { out_ = buffers; }

    // Env i plays game ``seed`` next, then the games of its seed's sequence; a seed of -1 plays
    // the next game of its sequence (Seeds.game_seed).
    void reset(int i, int64_t seed) {
        Row& row = rows_[i];
        uint64_t game = static_cast<uint64_t>(seed);
        if (seed < 0)
            game = row.seeds.randbelow(SEED_BOUND);
        else
            row.seeds = PyRandom::from_int(game);
        start_game(i, game);
        write(i);
    }

    // -1 if every action is legal for its row's seat to act (nothing is changed otherwise),
    // else the first row whose action is not.
    int64_t check(const int64_t* actions) const {
        for (int i = 0; i < num_envs(); ++i) {
            int64_t a = actions[i];
            if (a < 0 || a >= NUM_ACTIONS || !rows_[i].g.is_legal(static_cast<int>(a))) return i;
        }
        return -1;
    }

    // Every row takes its action (all checked legal), then auto-resets if its episode ended.
    void step(const int64_t* actions) {
        for (int i = 0; i < num_envs(); ++i) {
            if (config_.self_play)
                step_all(i, static_cast<int>(actions[i]));
            else
                step_one(i, static_cast<int>(actions[i]));
        }
    }

    const Game& game(int i) const { return rows_[i].g; }
    Row& row(int i) { return rows_[i]; }
    const Config& config() const { return config_; }

    // Row i plays the position ``g`` (of the batch's rules: the caller checks) from now, as
    // CardroomGymEnv.reset(options={"state": ...}) does: its episode starts there, its bots
    // are game ``seed``'s and its games to come follow from ``seed``; in single-agent mode the
    // bots play to the learner's first move. False, the row unchanged, if they end the
    // episode first or nobody is to act.
    bool load(int i, const Game& g, uint64_t seed) {
        if (g.turn < 0) return false;
        Row saved = rows_[i];
        Row& row = rows_[i];
        row.g = g;
        row.g.rules = config_.rules;
        row.seeds = PyRandom::from_int(seed);
        seat_bots(row, seed);
        for (int s = 0; s < n(); ++s) row.start[s] = g.totals[s];
        row.deal = row.first = g.hand_no;
        row.deals = row.steps = 0;
        row.over = false;
        row.pending = config_.self_play ? 0.0 : play_bots(i);
        if (row.over) {
            rows_[i] = saved;
            return false;
        }
        write(i);
        return true;
    }

    // Row i as it was: its game, then the rest of it set by the caller; its arrays written.
    void restore(int i, const Game& g) {
        Row& row = rows_[i];
        row.g = g;
        row.g.rules = config_.rules;
        for (size_t s = 0; s < row.bots.size(); ++s) row.bots[s].heuristic = config_.heuristic[s];
    }
    void rewrite(int i) { write(i); }

    // The global state: every row's every seat's observation, in seat order (num_envs x
    // players x size), what a centralised critic reads.
    void global_state(float* out) const {
        for (int i = 0; i < num_envs(); ++i)
            for (int s = 0; s < n(); ++s)
                encode(rows_[i].g, layout_, s, out + (static_cast<size_t>(i) * n() + s) * layout_.size);
    }

  private:
    Config config_;
    Layout layout_;
    std::vector<Row> rows_;
    Buffers out_{};
    Quiet quiet_;

    int n() const { return config_.rules.players; }
    int observed(int i) const { return config_.self_play ? rows_[i].g.turn : config_.seat; }

    void start_game(int i, uint64_t seed) {
        Row& row = rows_[i];
        Game& g = row.g;
        g = Game{};
        g.rules = config_.rules;
        g.n = n();
        g.seed = std::to_string(seed);
        g.choose_first_dealer();
        g.begin_hand(quiet_, nullptr);
        for (int s = 0; s < n(); ++s) row.start[s] = 0;
        seat_bots(row, seed);
        row.deal = row.first = g.hand_no;
        row.deals = row.steps = 0;
        row.over = false;
        // Every seat acts in every hand of Baha, so the bots never end an episode before the
        // learner's first move (the Python env's skipped games do not arise here).
        row.pending = config_.self_play ? 0.0 : play_bots(i);
    }

    // The bots of game ``seed``: CardroomGymEnv._make_opponents, make(name, seed=(seed + 1009 *
    // seat) % MAX_SEED).
    void seat_bots(Row& row, uint64_t seed) {
        if (config_.self_play) return;
        for (int s = 0; s < n(); ++s) {
            if (s == config_.seat) continue;
            unsigned __int128 agent_seed = (static_cast<unsigned __int128>(seed) + 1009U * s) % MAX_SEED;
            row.bots[s].heuristic = config_.heuristic[s];
            row.bots[s].player = Heuristic{seeded_rng(static_cast<__int128>(agent_seed), config_.rules.stream)};
        }
    }

    // DealRewards.after: each seat's reward into ``change`` if a deal ended since the last
    // call (true), ending the episode when it should.
    bool deal_rewards(Row& row, double* change) {
        const Game& g = row.g;
        bool is_over = g.phase == OVER;
        if (g.hand_no == row.deal && !is_over) return false;
        double sum = 0;
        for (int s = 0; s < n(); ++s) {
            change[s] = -1.0 * static_cast<double>(g.totals[s] - row.start[s]);  // lower_wins: negated
            sum += change[s];
        }
        if (config_.zero_sum) {
            double mean = sum / n();
            for (int s = 0; s < n(); ++s) change[s] -= mean;
        }
        row.deals = g.hand_no - row.first + is_over;
        for (int s = 0; s < n(); ++s) row.start[s] = g.totals[s];
        row.deal = g.hand_no;
        if (is_over || (config_.deals && row.deals >= config_.deals)) row.over = true;
        return true;
    }

    double learner_reward(Row& row) {
        double change[MAX_PLAYERS];
        return deal_rewards(row, change) ? change[config_.seat] : 0.0;
    }

    double play_bots(int i) {
        Row& row = rows_[i];
        Game& g = row.g;
        double total = 0.0;
        while (!row.over && g.turn >= 0 && g.turn != config_.seat) {
            g.apply(quiet_, row.bots[g.turn].act(g));
            total += learner_reward(row);
        }
        return total;
    }

    void step_one(int i, int action) {
        Row& row = rows_[i];
        row.steps += 1;
        bool truncated = config_.max_steps && row.steps >= config_.max_steps;
        row.g.apply(quiet_, action);
        double reward = row.pending + learner_reward(row);
        reward += play_bots(i);
        row.pending = 0.0;
        out_.rewards[i] = static_cast<float>(reward);
        finish(i, truncated, config_.seat);
    }

    void step_all(int i, int action) {
        Row& row = rows_[i];
        int actor = row.g.turn;
        row.steps += 1;
        bool truncated = config_.max_steps && row.steps >= config_.max_steps;
        row.g.apply(quiet_, action);
        double change[MAX_PLAYERS];
        float* rewards = out_.rewards + static_cast<size_t>(i) * n();
        bool dealt = deal_rewards(row, change);
        for (int s = 0; s < n(); ++s) rewards[s] = dealt ? static_cast<float>(change[s]) : 0.0f;
        finish(i, truncated, actor);
    }

    // The step's end: terminated or truncated, the final observation of ``seat`` and the
    // next game if the episode ended, then the row's observation.
    void finish(int i, bool truncated, int seat) {
        Row& row = rows_[i];
        bool terminated = row.over;
        truncated = truncated && !terminated;
        out_.terminated[i] = terminated;
        out_.truncated[i] = truncated;
        if (terminated || truncated) {
            encode(row.g, layout_, seat, out_.final_obs + static_cast<size_t>(i) * layout_.size);
            start_game(i, row.seeds.randbelow(SEED_BOUND));
        }
        write(i);
    }

    void write(int i) {
        const Game& g = rows_[i].g;
        int seat = observed(i);
        encode(g, layout_, seat, out_.obs + static_cast<size_t>(i) * layout_.size);
        write_mask(g, out_.mask + static_cast<size_t>(i) * NUM_ACTIONS);
        out_.to_act[i] = seat;
    }
};

}  // namespace baha

// -- the Python face -----------------------------------------------------------------------

namespace baha_vector {

namespace py = pybind11;

template <class T>
T* buffer_of(py::array& array, py::ssize_t size, const char* what) {
    if (!py::isinstance<py::array_t<T>>(array) || array.size() != size ||
        !(array.flags() & py::array::c_style) || !array.writeable())
        throw py::value_error(std::string(what) + ": a writeable C-contiguous array of the right type and size");
    return static_cast<T*>(array.mutable_data());
}

// The batch with the arrays it writes, kept alive while it lives.
struct Batch {
    baha::Vector vector;
    std::vector<py::array> held;

    Batch(const baha::Config& config, int num_envs) : vector(config, num_envs) {}

    void bind(py::array obs, py::array mask, py::array rewards, py::array terminated, py::array truncated,
              py::array to_act, py::array final_obs, int reward_width) {
        py::ssize_t n = vector.num_envs(), size = vector.size();
        vector.bind(baha::Buffers{
            buffer_of<float>(obs, n * size, "observations"), buffer_of<int8_t>(mask, n * baha::NUM_ACTIONS, "masks"),
            buffer_of<float>(rewards, n * reward_width, "rewards"), buffer_of<bool>(terminated, n, "terminated"),
            buffer_of<bool>(truncated, n, "truncated"), buffer_of<int64_t>(to_act, n, "to_act"),
            buffer_of<float>(final_obs, n * size, "final observations")});
        held = {obs, mask, rewards, terminated, truncated, to_act, final_obs};
    }
};

inline void check_row(const Batch& b, int i) {
    if (i < 0 || i >= b.vector.num_envs()) throw py::value_error("no such row");
}

// A row's state beside its game, as plain values (a pickle holds them): the generator of its
// games to come, each bot's generator, the totals its last deal's rewards count from, its
// deal, first deal, deals and steps so far, the learner's pending reward, whether it is over.
inline py::tuple row_words(const baha::Row& row, int n) {
    py::list bots;
    for (const baha::Bot& bot : row.bots) bots.append(bot.player.rng.dump());
    return py::make_tuple(row.seeds.dump(), bots, std::vector<int64_t>(row.start, row.start + n), row.deal, row.first,
                          row.deals, row.steps, row.pending, row.over);
}

inline void set_row_words(baha::Row& row, int n, const py::tuple& words) {
    auto fail = []() { throw py::value_error("not the state of a row of this batch"); };
    if (words.size() != 9) fail();
    auto bots = words[1].cast<std::vector<std::vector<uint64_t>>>();
    auto start = words[2].cast<std::vector<int64_t>>();
    if (bots.size() != row.bots.size() || static_cast<int>(start.size()) != n) fail();
    baha::Row next = row;
    if (!next.seeds.load(words[0].cast<std::vector<uint64_t>>())) fail();
    for (size_t s = 0; s < bots.size(); ++s)
        if (!next.bots[s].player.rng.load(bots[s])) fail();
    for (int s = 0; s < n; ++s) next.start[s] = start[s];
    next.deal = words[3].cast<int64_t>(), next.first = words[4].cast<int64_t>();
    next.deals = words[5].cast<int64_t>(), next.steps = words[6].cast<int64_t>();
    next.pending = words[7].cast<double>(), next.over = words[8].cast<bool>();
    row = std::move(next);
}

// ``game_of`` finds the Game of a native Baha state (module.cpp's core type), for
// baha_observe: the encoder on any position, which the tests hold to the Python encoder's;
// ``put_game`` makes a native state hold a row's game (its log and history empty).
template <class GameOf, class PutGame>
void register_baha_vector(py::module_& m, GameOf game_of, PutGame put_game) {
    m.def(
        "baha_observe",
        [game_of](py::handle state, int seat, py::array out) {
            const baha::Game& g = game_of(state);
            baha::Layout layout(g.n);
            if (seat < 0 || seat >= g.n) throw py::value_error("no such seat");
            baha::encode(g, layout, seat, buffer_of<float>(out, layout.size, "out"));
        },
        py::arg("state"), py::arg("seat"), py::arg("out"));

    py::class_<Batch>(m, "BahaVector", "Baha's vector environment (cardroom.games.baha.vector drives it).")
        .def(py::init([](int players, bool face, bool passing, bool moon, int64_t target, bool draw_pile,
                         bool random_dealer, int num_envs, bool self_play, int seat,
                         const std::vector<bool>& heuristic, int64_t deals, int64_t max_steps, bool zero_sum,
                         bool split) {
                 baha::Config config;
                 baha::Rules& r = config.rules;
                 r.players = players, r.face = face, r.passing = passing, r.moon = moon, r.target = target;
                 r.draw_pile = draw_pile, r.random_dealer = random_dealer;
                 r.stream = split ? Stream::SplitMix : Stream::Twister;
                 r.derive();
                 if (players < 2 || players > baha::MAX_PLAYERS || static_cast<int>(heuristic.size()) != players ||
                     num_envs < 1 || seat < 0 || seat >= players)
                     throw py::value_error("BahaVector: bad players, seat, bots or num_envs");
                 config.self_play = self_play, config.seat = seat;
                 for (int s = 0; s < players; ++s) config.heuristic[s] = heuristic[s];
                 config.deals = deals, config.max_steps = max_steps, config.zero_sum = zero_sum;
                 return new Batch(config, num_envs);
             }),
             py::arg("players"), py::arg("face"), py::arg("passing"), py::arg("moon"), py::arg("target"),
             py::arg("draw_pile"), py::arg("random_dealer"), py::arg("num_envs"), py::arg("self_play"),
             py::arg("seat"), py::arg("heuristic"), py::arg("deals"), py::arg("max_steps"), py::arg("zero_sum"), py::arg("split") = false)
        .def_property_readonly("size", [](const Batch& b) { return b.vector.size(); })
        .def("bind", &Batch::bind)
        .def("reset",
             [](Batch& b, const std::vector<uint64_t>& rows, const std::vector<int64_t>& seeds) {
                 if (rows.size() != seeds.size()) throw py::value_error("one seed a row");
                 for (uint64_t i : rows)
                     if (i >= static_cast<uint64_t>(b.vector.num_envs())) throw py::value_error("no such row");
                 py::gil_scoped_release unlocked;  // only the batch's own memory is touched
                 for (size_t k = 0; k < rows.size(); ++k) b.vector.reset(static_cast<int>(rows[k]), seeds[k]);
             })
        .def("step",
             [](Batch& b, const py::array_t<int64_t, py::array::c_style>& actions) -> int64_t {
                 if (actions.size() != b.vector.num_envs()) throw py::value_error("one action a row");
                 const int64_t* given = actions.data();
                 py::gil_scoped_release unlocked;  // only the batch's memory and the bound arrays
                 int64_t bad = b.vector.check(given);
                 if (bad < 0) b.vector.step(given);
                 return bad;
             })
        .def("legal_actions",
             [](const Batch& b, int i) {
                 if (i < 0 || i >= b.vector.num_envs()) throw py::value_error("no such row");
                 const baha::Game& g = b.vector.game(i);
                 std::vector<int> out;
                 int base = g.phase == baha::PASS ? baha::PASS_BASE : 0;
                 for (uint64_t legal = g.legal_mask(); legal; legal &= legal - 1) out.push_back(base + baha::lowest(legal));
                 return out;
             })
        .def("turn", [](const Batch& b, int i) { return b.vector.game(i).turn; })
        .def("global_state",
             [](const Batch& b, py::array out) {
                 const baha::Vector& v = b.vector;
                 float* into = buffer_of<float>(out, static_cast<py::ssize_t>(v.num_envs()) * v.config().rules.players * v.size(),
                                                "global states");
                 py::gil_scoped_release unlocked;  // only the batch's memory and ``out``
                 v.global_state(into);
             })
        .def("row_seed",
             [](const Batch& b, int i) {
                 check_row(b, i);
                 return b.vector.game(i).seed;
             })
        .def("row_state",
             [put_game](Batch& b, int i, py::handle state) {
                 check_row(b, i);
                 const baha::Row& row = b.vector.row(i);
                 put_game(state, row.g);
                 return row_words(row, row.g.n);
             })
        .def("set_row_state",
             [game_of](Batch& b, int i, py::handle state, const py::tuple& words) {
                 check_row(b, i);
                 const baha::Game& g = game_of(state);
                 baha::Row& row = b.vector.row(i);
                 if (g.n != b.vector.config().rules.players) throw py::value_error("a position of another table size");
                 set_row_words(row, g.n, words);
                 b.vector.restore(i, g);
                 b.vector.rewrite(i);
             })
        .def("load",
             [game_of](Batch& b, int i, py::handle state, uint64_t seed) {
                 check_row(b, i);
                 const baha::Game& g = game_of(state);
                 if (g.n != b.vector.config().rules.players) throw py::value_error("a position of another table size");
                 return b.vector.load(i, g, seed);
             });
}

}  // namespace baha_vector
}  // namespace cardroom
