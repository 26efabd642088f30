// A game's vector environment in C++, generic over the game's traits (as ismcts.hpp is): N
// games stepped in one call, observations written straight into the caller's float32 buffer,
// the GIL released while the games run, and its Python face (VectorBatch, bind_vector).
//
// The rewards, episodes, seeds and bots are those of cardroom.rl's Python vector env
// (rl/vector.py), whose single-agent rows are CardroomGymEnv's own episodes, games passed over
// included (a game whose episode the bots end before the learner's first move).
//
// Two modes. Single-agent: one learner seat; every other seat is a bot inside the batch
// (random or heuristic, seeded per game as the Gymnasium env seeds cardroom.agents.make), and
// a step plays the learner's action then the bots' until the learner is to act again. Self-play:
// every seat is an agent, a step takes the action of whichever seat is to act, and the
// rewards are every seat's. Auto-reset on the same step: a row whose episode ended holds the
// next game's first observation, the ended one is in the final-observation buffer.
//
// A game plugs in through a traits struct:
//
//   Game, Rules, Layout, Bot, Sink   its state, rules, observation layout, batch bot (``heuristic``,
//                                    ``player`` with its ``rng``, ``act(game)``), quiet sink
//   Legal                            what a row keeps of its legal actions between steps
//   MAX_PLAYERS
//   layout(rules), layout_of(game), actions(rules, layout)   the observation's layout (of the
//                                           batch's rules, of a game's), the action space's size
//   encode(game, layout, seat, out)         the game's observation encoder
//   note_legal(game, legal), is_legal(game, legal, action), write_mask(game, legal, size, out),
//   legal_actions(game, legal)              the legal actions: kept, checked, as a mask, as a list
//   deal_no(game), over(game)               the deal (hand, round) being played; whether it is over
//   apply(game, sink, action)
//   deal(game, rules, seed, sink)           game ``seed`` dealt, from its start
//   adopt(into, game, rules, sink)          a native state's game as a row's
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "chance.hpp"

namespace cardroom {
namespace vec {

constexpr uint64_t SEED_BOUND = 1ULL << 63;    // table.Seeds: randrange(2**63)
constexpr uint64_t MAX_SEED = SEED_BOUND - 1;  // agents.MAX_SEED
constexpr int MAX_SKIPPED = 100;               // rl.single.MAX_SKIPPED

// What stops a row: every game of MAX_SKIPPED in a row ended before the learner had a move.
struct Skipped : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What one row of the batch needs beside its game: rl.table.Seeds, DealRewards, the bots.
template <class Traits>
struct Row {
    typename Traits::Game g;
    PyRandom seeds{PyRandom::from_int(0)};
    std::vector<typename Traits::Bot> bots;  // one a seat in single-agent mode (the learner's unused), else none
    std::vector<int64_t> start;              // totals when the last deal's rewards were given
    typename Traits::Legal legal{};          // the legal actions now, as the game keeps them
    int64_t deal = 0, first = 0, deals = 0, steps = 0;
    double pending = 0;  // the learner's rewards of deals the bots ended before its first move
    bool over = false;
};

// The options of the batch (rl.vector_env's).
template <class Traits>
struct Config {
    typename Traits::Rules rules;
    bool self_play = false;
    int seat = 0;                 // the learner (single-agent)
    std::vector<bool> heuristic;  // each bot seat: heuristic, else random
    int64_t deals = 0;            // episode length in deals; 0 for the whole game
    int64_t max_steps = 0;        // 0 for no limit
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

template <class Traits>
class Vector {
  public:
    using Game = typename Traits::Game;
    using RowT = Row<Traits>;
    using ConfigT = Config<Traits>;

    Vector(const ConfigT& config, int num_envs)
        : config_(config), layout_(Traits::layout(config.rules)), rows_(num_envs) {
        actions_ = Traits::actions(config.rules, layout_);
        for (RowT& row : rows_) {
            if (!config.self_play) row.bots.resize(config.rules.players);  // only where played
            row.start.assign(config.rules.players, 0);
        }
    }

    int size() const { return layout_.size; }
    int actions() const { return actions_; }
    int num_envs() const { return static_cast<int>(rows_.size()); }
    void bind(const Buffers& buffers) { out_ = buffers; }

    // Env i plays game ``seed`` next, then the games of its seed's sequence; a seed of -1 plays
    // the next game of its sequence (Seeds.game_seed).
    void reset(int i, int64_t seed) {
        RowT& row = rows_[i];
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
        for (int i = 0; i < num_envs(); ++i)
            if (!Traits::is_legal(rows_[i].g, rows_[i].legal, actions[i])) return i;
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
    std::vector<int> legal_actions(int i) const { return Traits::legal_actions(rows_[i].g, rows_[i].legal); }
    RowT& row(int i) { return rows_[i]; }
    const ConfigT& config() const { return config_; }

    // Row i plays the position ``g`` (of the batch's rules: the caller checks) from now, as
    // CardroomGymEnv.reset(options={"state": ...}) does: its episode starts there, its bots
    // are game ``seed``'s and its games to come follow from ``seed``; in single-agent mode the
    // bots play to the learner's first move. False, the row unchanged, if they end the
    // episode first or nobody is to act.
    bool load(int i, const Game& g, uint64_t seed) {
        if (g.turn < 0 || Traits::over(g)) return false;
        RowT saved = rows_[i];
        RowT& row = rows_[i];
        Traits::adopt(row.g, g, config_.rules, quiet_);
        row.seeds = PyRandom::from_int(seed);
        seat_bots(row, seed);
        for (int s = 0; s < n(); ++s) row.start[s] = g.totals[s];
        row.deal = row.first = Traits::deal_no(g);
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
        RowT& row = rows_[i];
        Traits::adopt(row.g, g, config_.rules, quiet_);
        for (size_t s = 0; s < row.bots.size(); ++s) row.bots[s].heuristic = config_.heuristic[s];
    }
    void rewrite(int i) { write(i); }

    // The global state: every row's every seat's observation, in seat order (num_envs x
    // players x size), what a centralised critic reads.
    void global_state(float* out) const {
        for (int i = 0; i < num_envs(); ++i)
            for (int s = 0; s < n(); ++s)
                Traits::encode(rows_[i].g, layout_, s, out + (static_cast<size_t>(i) * n() + s) * layout_.size);
    }

  private:
    ConfigT config_;
    typename Traits::Layout layout_;
    int actions_ = 0;
    std::vector<RowT> rows_;
    Buffers out_{};
    typename Traits::Sink quiet_;

    int n() const { return config_.rules.players; }
    int observed(int i) const { return config_.self_play ? rows_[i].g.turn : config_.seat; }

    void deal(int i, uint64_t seed) {
        RowT& row = rows_[i];
        Traits::deal(row.g, config_.rules, seed, quiet_);
        seat_bots(row, seed);
        for (int s = 0; s < n(); ++s) row.start[s] = row.g.totals[s];
        row.deal = row.first = Traits::deal_no(row.g);
        row.deals = row.steps = 0;
        row.over = false;
    }

    // The bots of game ``seed``: CardroomGymEnv._make_opponents, make(name, seed=(seed + 1009 *
    // seat) % MAX_SEED).
    void seat_bots(RowT& row, uint64_t seed) {
        if (config_.self_play) return;
        for (int s = 0; s < n(); ++s) {
            if (s == config_.seat) continue;
            unsigned __int128 agent_seed = (static_cast<unsigned __int128>(seed) + 1009U * s) % MAX_SEED;
            row.bots[s].heuristic = config_.heuristic[s];
            row.bots[s].player = decltype(row.bots[s].player){
                seeded_rng(static_cast<__int128>(agent_seed), config_.rules.stream)};
        }
    }

    // CardroomGymEnv.reset from game ``seed``: the bots play to the learner's first move; a
    // game whose episode they end first is passed over for the next of the row's sequence.
    void start_game(int i, uint64_t seed) {
        RowT& row = rows_[i];
        if (config_.self_play) {
            deal(i, seed);
            row.pending = 0.0;
            return;
        }
        uint64_t first = seed;
        for (int skipped = 0;;) {
            deal(i, seed);
            row.pending = play_bots(i);
            if (!row.over) return;
            if (++skipped == MAX_SKIPPED)
                throw Skipped(std::to_string(MAX_SKIPPED) + " games in a row ended before seat " +
                              std::to_string(config_.seat) + " had a move (seeds " + std::to_string(first) +
                              " to " + std::to_string(seed) +
                              " of the sequence): the rules or the opponents leave the learner nothing to play");
            seed = row.seeds.randbelow(SEED_BOUND);
        }
    }

    // DealRewards.after: each seat's reward into ``change`` if a deal ended since the last
    // call (true), ending the episode when it should.
    bool deal_rewards(RowT& row, double* change) {
        const Game& g = row.g;
        bool is_over = Traits::over(g);
        int64_t deal = Traits::deal_no(g);
        if (deal == row.deal && !is_over) return false;
        double sum = 0;
        for (int s = 0; s < n(); ++s) {
            change[s] = -1.0 * static_cast<double>(g.totals[s] - row.start[s]);  // lower_wins: negated
            sum += change[s];
        }
        if (config_.zero_sum) {
            double mean = sum / n();
            for (int s = 0; s < n(); ++s) change[s] -= mean;
        }
        row.deals = deal - row.first + is_over;
        for (int s = 0; s < n(); ++s) row.start[s] = g.totals[s];
        row.deal = deal;
        if (is_over || (config_.deals && row.deals >= config_.deals)) row.over = true;
        return true;
    }

    double learner_reward(RowT& row) {
        double change[Traits::MAX_PLAYERS];
        return deal_rewards(row, change) ? change[config_.seat] : 0.0;
    }

    double play_bots(int i) {
        RowT& row = rows_[i];
        Game& g = row.g;
        double total = 0.0;
        while (!row.over && g.turn >= 0 && g.turn != config_.seat) {
            Traits::apply(g, quiet_, row.bots[g.turn].act(g));
            total += learner_reward(row);
        }
        return total;
    }

    void step_one(int i, int action) {
        RowT& row = rows_[i];
        row.steps += 1;
        bool truncated = config_.max_steps && row.steps >= config_.max_steps;
        Traits::apply(row.g, quiet_, action);
        double reward = row.pending + learner_reward(row);
        reward += play_bots(i);
        row.pending = 0.0;
        out_.rewards[i] = static_cast<float>(reward);
        finish(i, truncated, config_.seat);
    }

    void step_all(int i, int action) {
        RowT& row = rows_[i];
        int actor = row.g.turn;
        row.steps += 1;
        bool truncated = config_.max_steps && row.steps >= config_.max_steps;
        Traits::apply(row.g, quiet_, action);
        double change[Traits::MAX_PLAYERS];
        float* rewards = out_.rewards + static_cast<size_t>(i) * n();
        bool dealt = deal_rewards(row, change);
        for (int s = 0; s < n(); ++s) rewards[s] = dealt ? static_cast<float>(change[s]) : 0.0f;
        finish(i, truncated, actor);
    }

    // The step's end: terminated or truncated, the final observation of ``seat`` and the
    // next game if the episode ended, then the row's observation.
    void finish(int i, bool truncated, int seat) {
        RowT& row = rows_[i];
        bool terminated = row.over;
        truncated = truncated && !terminated;
        out_.terminated[i] = terminated;
        out_.truncated[i] = truncated;
        if (terminated || truncated) {
            Traits::encode(row.g, layout_, seat, out_.final_obs + static_cast<size_t>(i) * layout_.size);
            start_game(i, row.seeds.randbelow(SEED_BOUND));
        }
        write(i);
    }

    void write(int i) {
        RowT& row = rows_[i];
        int seat = observed(i);
        Traits::note_legal(row.g, row.legal);
        Traits::encode(row.g, layout_, seat, out_.obs + static_cast<size_t>(i) * layout_.size);
        Traits::write_mask(row.g, row.legal, actions_, out_.mask + static_cast<size_t>(i) * actions_);
        out_.to_act[i] = seat;
    }
};

// -- the Python face -----------------------------------------------------------------------

namespace py = pybind11;

template <class T>
T* buffer_of(py::array& array, py::ssize_t size, const char* what) {
    if (!py::isinstance<py::array_t<T>>(array) || array.size() != size ||
        !(array.flags() & py::array::c_style) || !array.writeable())
        throw py::value_error(std::string(what) + ": a writeable C-contiguous array of the right type and size");
    return static_cast<T*>(array.mutable_data());
}

// The batch with the arrays it writes (and whatever its rules need kept: a compiled deck),
// kept alive while it lives.
template <class Traits>
struct Batch {
    Vector<Traits> vector;
    std::vector<py::array> held;
    std::shared_ptr<void> keep;

    Batch(const Config<Traits>& config, int num_envs, std::shared_ptr<void> kept = nullptr)
        : vector(config, num_envs), keep(std::move(kept)) {}

    void bind(py::array obs, py::array mask, py::array rewards, py::array terminated, py::array truncated,
              py::array to_act, py::array final_obs, int reward_width) {
        py::ssize_t n = vector.num_envs(), size = vector.size();
        vector.bind(Buffers{
            buffer_of<float>(obs, n * size, "observations"), buffer_of<int8_t>(mask, n * vector.actions(), "masks"),
            buffer_of<float>(rewards, n * reward_width, "rewards"), buffer_of<bool>(terminated, n, "terminated"),
            buffer_of<bool>(truncated, n, "truncated"), buffer_of<int64_t>(to_act, n, "to_act"),
            buffer_of<float>(final_obs, n * size, "final observations")});
        held = {obs, mask, rewards, terminated, truncated, to_act, final_obs};
    }
};

template <class Traits>
void check_row(const Batch<Traits>& b, int i) {
    if (i < 0 || i >= b.vector.num_envs()) throw py::value_error("no such row");
}

// A row's state beside its game, as plain values (a pickle holds them): the generator of its
// games to come, each bot's generator, the totals its last deal's rewards count from, its
// deal, first deal, deals and steps so far, the learner's pending reward, whether it is over.
template <class Traits>
py::tuple row_words(const Row<Traits>& row) {
    py::list bots;
    for (const auto& bot : row.bots) bots.append(bot.player.rng.dump());
    return py::make_tuple(row.seeds.dump(), bots, row.start, row.deal, row.first, row.deals, row.steps, row.pending,
                          row.over);
}

template <class Traits>
void set_row_words(Row<Traits>& row, const py::tuple& words) {
    auto fail = []() { throw py::value_error("not the state of a row of this batch"); };
    if (words.size() != 9) fail();
    auto bots = words[1].cast<std::vector<std::vector<uint64_t>>>();
    auto start = words[2].cast<std::vector<int64_t>>();
    if (bots.size() != row.bots.size() || start.size() != row.start.size()) fail();
    Row<Traits> next = row;
    if (!next.seeds.load(words[0].cast<std::vector<uint64_t>>())) fail();
    for (size_t s = 0; s < bots.size(); ++s)
        if (!next.bots[s].player.rng.load(bots[s])) fail();
    next.start = start;
    next.deal = words[3].cast<int64_t>(), next.first = words[4].cast<int64_t>();
    next.deals = words[5].cast<int64_t>(), next.steps = words[6].cast<int64_t>();
    next.pending = words[7].cast<double>(), next.over = words[8].cast<bool>();
    row = std::move(next);
}

// The observer (``<game>_observe``: the encoder on any position, which the tests hold to the
// Python encoder's) and the batch's methods, every game's alike. ``game_of`` finds the Game of
// a native state of the game; ``put_game`` makes a native state hold a row's game (its log and
// history empty). The caller adds the constructor (the rules' options).
template <class Traits, class GameOf, class PutGame>
void bind_vector(py::module_& m, const char* observe, py::class_<Batch<Traits>>& cls, GameOf game_of,
                 PutGame put_game) {
    using B = Batch<Traits>;
    m.def(
        observe,
        [game_of](py::handle state, int seat, py::array out) {
            const auto& g = game_of(state);
            auto layout = Traits::layout_of(g);
            if (seat < 0 || seat >= g.n) throw py::value_error("no such seat");
            Traits::encode(g, layout, seat, buffer_of<float>(out, layout.size, "out"));
        },
        py::arg("state"), py::arg("seat"), py::arg("out"));
    cls.def_property_readonly("size", [](const B& b) { return b.vector.size(); })
        .def_property_readonly("actions", [](const B& b) { return b.vector.actions(); })
        .def("bind", &B::bind)
        .def("reset",
             [](B& b, const std::vector<uint64_t>& rows, const std::vector<int64_t>& seeds) {
                 if (rows.size() != seeds.size()) throw py::value_error("one seed a row");
                 for (uint64_t i : rows)
                     if (i >= static_cast<uint64_t>(b.vector.num_envs())) throw py::value_error("no such row");
                 std::string skipped;
                 {
                     py::gil_scoped_release unlocked;  // only the batch's own memory is touched
                     try {
                         for (size_t k = 0; k < rows.size(); ++k) b.vector.reset(static_cast<int>(rows[k]), seeds[k]);
                     } catch (const Skipped& error) {
                         skipped = error.what();
                     }
                 }
                 return skipped;
             })
        .def("step",
             [](B& b, const py::array_t<int64_t, py::array::c_style>& actions) -> py::object {
                 if (actions.size() != b.vector.num_envs()) throw py::value_error("one action a row");
                 const int64_t* given = actions.data();
                 int64_t bad = -1;
                 std::string skipped;
                 {
                     py::gil_scoped_release unlocked;  // only the batch's memory and the bound arrays
                     bad = b.vector.check(given);
                     try {
                         if (bad < 0) b.vector.step(given);
                     } catch (const Skipped& error) {
                         skipped = error.what();
                     }
                 }
                 if (!skipped.empty()) return py::str(skipped);
                 return py::int_(bad);
             })
        .def("legal_actions",
             [](const B& b, int i) {
                 check_row(b, i);
                 return b.vector.legal_actions(i);
             })
        .def("turn",
             [](const B& b, int i) {
                 check_row(b, i);
                 return b.vector.game(i).turn;
             })
        .def("global_state",
             [](const B& b, py::array out) {
                 const Vector<Traits>& v = b.vector;
                 float* into = buffer_of<float>(
                     out, static_cast<py::ssize_t>(v.num_envs()) * v.config().rules.players * v.size(), "global states");
                 py::gil_scoped_release unlocked;  // only the batch's memory and ``out``
                 v.global_state(into);
             })
        .def("row_seed",
             [](const B& b, int i) {
                 check_row(b, i);
                 return b.vector.game(i).seed;
             })
        .def("row_state",
             [put_game](B& b, int i, py::handle state) {
                 check_row(b, i);
                 const Row<Traits>& row = b.vector.row(i);
                 put_game(state, row.g);
                 return row_words(row);
             })
        .def("set_row_state",
             [game_of](B& b, int i, py::handle state, const py::tuple& words) {
                 check_row(b, i);
                 const auto& g = game_of(state);
                 if (g.n != b.vector.config().rules.players) throw py::value_error("a position of another table size");
                 set_row_words(b.vector.row(i), words);
                 b.vector.restore(i, g);
                 b.vector.rewrite(i);
             })
        .def("load", [game_of](B& b, int i, py::handle state, uint64_t seed) {
            check_row(b, i);
            const auto& g = game_of(state);
            if (g.n != b.vector.config().rules.players) throw py::value_error("a position of another table size");
            return b.vector.load(i, g, seed);
        });
}

}  // namespace vec
}  // namespace cardroom
