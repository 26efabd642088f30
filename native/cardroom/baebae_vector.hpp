// BAEBAE's vector environment in C++: N games stepped in one call on the native engine
// (baebae.hpp running the deck's compiled program), observations written straight into the
// caller's float32 buffer, the GIL released while the games run.
//
// The observation is games/baebae/observation.py's, entry for entry and bit for bit (each
// count and scaled number is summed and divided in double as the Python does, then rounded
// to float as its struct packing rounds it); the rewards, episodes, seeds and bots are those
// of cardroom.rl's Python vector env (rl/vector.py), whose single-agent rows are
// CardroomGymEnv's own episodes, games passed over included (a game whose episode the bots end
// before the learner's first move). tests/native/test_vector_native.py steps both side by side.
//
// The two modes, the auto-reset and the buffers are baha_vector.hpp's.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cardroom/baebae.hpp"
#include "cardroom/baebae_heuristic.hpp"
#include "cardroom/baebae_module.hpp"
#include "cardroom/chance.hpp"

namespace cardroom {
namespace baebae {

// Where each slice of the observation starts (observation.py's _Tables for the rules).
struct Layout {
    int designs, n, hand, discard, counts, top, drawn, pending_card, suit, declared, direction, phase, decision,
        purpose, may_stop, to_act, bits_end, hand_sizes, skips, stock, penalties, totals, round, size;
    int deck, hand_size;
    std::vector<double> per_copy;

    Layout(const Program& p, int players, int dealt) : designs(static_cast<int>(p.designs.size())), n(players) {
        int at = 0;
        auto add = [&at](int width) {
            int start = at;
            at += width;
            return start;
        };
        hand = add(designs), discard = add(designs);
        counts = at;
        top = add(designs), drawn = add(designs), pending_card = add(designs), suit = add(4), declared = add(1);
        direction = add(1), phase = add(3), decision = add(5), purpose = add(3), may_stop = add(1), to_act = add(n);
        bits_end = at;
        hand_sizes = add(n), skips = add(n), stock = add(1), penalties = add(n), totals = add(n), round = add(1);
        size = at;
        deck = p.cards();
        hand_size = dealt ? dealt : 1;
        for (int c : p.copies) per_copy.push_back(1.0 / c);
    }
};

// BaebaeObservation.encode: what ``seat`` may know of ``g``, into out[0:layout.size].
inline void encode(const Game& g, const Layout& at, int seat, float* out) {
    const Program& p = *g.prog;
    const int n = g.n;
    std::memset(out, 0, sizeof(float) * at.bits_end);
    // The counts per design, summed copy by copy in double as the Python sums them.
    double counts[2 * 256];
    std::vector<double> spill;
    double* sums = counts;
    if (at.designs > 256) spill.assign(2 * at.designs, 0.0), sums = spill.data();
    else std::fill(counts, counts + 2 * at.designs, 0.0);
    g.hands[seat].each([&](int pid) {
        int d = p.card_of[pid];
        sums[d] += at.per_copy[d];
    });
    for (int pid : g.discard) {
        int d = p.card_of[pid];
        sums[at.designs + d] += at.per_copy[d];
    }
    for (int k = 0; k < 2 * at.designs; ++k) out[at.hand + k] = static_cast<float>(sums[k]);
    out[at.top + p.card_of[g.discard.back()]] = 1.0f;
    if (g.drawn >= 0 && g.turn == seat) out[at.drawn + p.card_of[g.drawn]] = 1.0f;
    const Decision& d = g.pending;
    if (g.phase == DECIDE && d.kind >= 0 && d.seat == seat) {
        out[at.pending_card + p.card_of[d.card]] = 1.0f;
        out[at.decision + d.kind] = 1.0f;
        if (d.kind == K_SELECT) {
            out[at.purpose + d.purpose - P_DISCARD] = 1.0f;
            if (d.may_stop) out[at.may_stop] = 1.0f;
        }
    }
    out[at.suit + g.suit] = 1.0f;
    if (g.declared) out[at.declared] = 1.0f;
    if (g.direction == 1) out[at.direction] = 1.0f;
    if (g.phase != OVER) out[at.phase + g.phase] = 1.0f;
    if (g.turn >= 0) out[at.to_act + ((g.turn - seat) % n + n) % n] = 1.0f;
    const double size = at.hand_size;
    for (int k = 0; k < n; ++k) {
        int s = (seat + k) % n;
        out[at.hand_sizes + k] = static_cast<float>(g.hands[s].count() / size);
        out[at.skips + k] = static_cast<float>(static_cast<double>(g.skips[s]));
        out[at.penalties + k] = static_cast<float>(static_cast<double>(g.round_penalties[s]) / 10);
        out[at.totals + k] = static_cast<float>(static_cast<double>(g.totals[s]) / 100);
    }
    out[at.stock] = static_cast<float>(static_cast<double>(g.stock.size()) / at.deck);
    out[at.round] = static_cast<float>(static_cast<double>(g.round_no) / g.rules.rounds);
}

// The int8 mask of the legal actions of the seat to act (``legal``: g.legal()).
inline void write_mask(const std::vector<int>& legal, int size, int8_t* out) {
    std::memset(out, 0, static_cast<size_t>(size));
    for (int a : legal) out[a] = 1;
}

namespace vec {

// A bot of the batch: cardroom.agents' random agent (randrange over the legal actions) or
// the heuristic, on random.Random(its seed).
struct Bot {
    bool heuristic = false;
    Heuristic player{PyRandom::from_int(0)};

    int act(const Game& g) {
        if (heuristic) return player.act(g);
        std::vector<int> legal = g.legal();
        return legal[player.rng.randbelow(legal.size())];
    }
};

constexpr uint64_t SEED_BOUND = 1ULL << 63;  // table.Seeds: randrange(2**63)
constexpr uint64_t MAX_SEED = SEED_BOUND - 1;  // agents.MAX_SEED
constexpr int MAX_SKIPPED = 100;               // rl.single.MAX_SKIPPED

// What one row of the batch needs beside its game: rl.table.Seeds, DealRewards, the bots.
struct Row {
    Game g;
    PyRandom seeds{PyRandom::from_int(0)};
    std::vector<Bot> bots;  // one a seat in single-agent mode (the learner's unused), else none
    std::vector<int64_t> start;  // totals when the last deal's rewards were given
    std::vector<int> legal;      // the legal actions now
    int64_t deal = 0, first = 0, deals = 0, steps = 0;
    double pending = 0;  // the learner's rewards of deals the bots ended before its first move
    bool over = false;
};

// The options of the batch (rl.vector_env's).
struct Config {
    Rules rules;
    bool self_play = false;
    int seat = 0;                 // the learner (single-agent)
    std::vector<bool> heuristic;  // each bot seat: heuristic, else random
    int64_t deals = 0;            // episode length in deals; 0 for the whole game
    int64_t max_steps = 0;        // 0 for no limit
    bool zero_sum = false;
};

struct Buffers {
    float* obs;
    int8_t* mask;
    float* rewards;  // N (single-agent) or N x players (self-play)
    bool* terminated;
    bool* truncated;
    int64_t* to_act;
    float* final_obs;
};

// What stops a row: every game of MAX_SKIPPED in a row ended before the learner had a move.
struct Skipped : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Vector {
  public:
    Vector(const Config& config, int num_envs)
        : config_(config), layout_(*config.rules.program, config.rules.players, config.rules.hand_size), rows_(num_envs) {
        space_ = Space{layout_.designs, config.rules.players, 6};
        for (Row& row : rows_) {
            if (!config.self_play) row.bots.resize(config.rules.players);
            row.start.assign(config.rules.players, 0);
        }
    }

    int size() const { return layout_.size; }
    int actions() const { return space_.size(); }
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
            const std::vector<int>& legal = rows_[i].legal;
            if (std::find(legal.begin(), legal.end(), actions[i]) == legal.end()) return i;
        }
        return -1;
    }

    void step(const int64_t* actions) {
        for (int i = 0; i < num_envs(); ++i) {
            if (config_.self_play)
                step_all(i, static_cast<int>(actions[i]));
            else
                step_one(i, static_cast<int>(actions[i]));
        }
    }

    const Game& game(int i) const { return rows_[i].g; }
    const std::vector<int>& legal(int i) const { return rows_[i].legal; }
    Row& row(int i) { return rows_[i]; }
    const Config& config() const { return config_; }

    // Row i plays the position ``g`` (of the batch's rules and deck: the caller checks) from
    // now, as CardroomGymEnv.reset(options={"state": ...}) does: its episode starts there, its
    // bots are game ``seed``'s and its games to come follow from ``seed``; in single-agent mode
    // the bots play to the learner's first move. False, the row unchanged, if they end the
    // episode first or nobody is to act.
    bool load(int i, const Game& g, uint64_t seed) {
        if (g.turn < 0 || g.phase == OVER) return false;
        Row saved = rows_[i];
        Row& row = rows_[i];
        adopt(row.g, g);
        row.seeds = PyRandom::from_int(seed);
        seat_bots(row, seed);
        for (int s = 0; s < n(); ++s) row.start[s] = g.totals[s];
        row.deal = row.first = g.round_no;
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
        adopt(row.g, g);
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
    Space space_;
    std::vector<Row> rows_;
    Buffers out_{};
    Sink quiet_;

    int n() const { return config_.rules.players; }
    int observed(int i) const { return config_.self_play ? rows_[i].g.turn : config_.seat; }

    void deal(int i, uint64_t seed) {
        Row& row = rows_[i];
        Game& g = row.g;
        g = Game{};
        g.setup(config_.rules, std::to_string(seed));
        quiet_.events = false;  // nothing read but the state
        g.sink = &quiet_;
        g.begin_round();
        seat_bots(row, seed);
        for (int s = 0; s < n(); ++s) row.start[s] = g.totals[s];
        row.deal = row.first = g.round_no;
        row.deals = row.steps = 0;
        row.over = false;
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

    // The game of a native state as a row's: the batch's rules, program and quiet sink.
    void adopt(Game& into, const Game& g) {
        into = g;
        into.rules = config_.rules;
        into.prog = config_.rules.program.get();
        quiet_.events = false;  // nothing read but the state
        into.sink = &quiet_;
    }

    // CardroomGymEnv.reset from game ``seed``: the bots play to the learner's first move; a
    // game whose episode they end first is passed over for the next of the row's sequence.
    void start_game(int i, uint64_t seed) {
        Row& row = rows_[i];
        if (config_.self_play) {
            deal(i, seed);
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
    bool deal_rewards(Row& row, double* change) {
        const Game& g = row.g;
        bool is_over = g.phase == OVER;
        if (g.round_no == row.deal && !is_over) return false;
        double sum = 0;
        for (int s = 0; s < n(); ++s) {
            change[s] = -1.0 * static_cast<double>(g.totals[s] - row.start[s]);  // lower_wins: negated
            sum += change[s];
        }
        if (config_.zero_sum) {
            double mean = sum / n();
            for (int s = 0; s < n(); ++s) change[s] -= mean;
        }
        row.deals = g.round_no - row.first + is_over;
        for (int s = 0; s < n(); ++s) row.start[s] = g.totals[s];
        row.deal = g.round_no;
        if (is_over || (config_.deals && row.deals >= config_.deals)) row.over = true;
        return true;
    }

    double learner_reward(Row& row) {
        double change[64];
        return deal_rewards(row, change) ? change[config_.seat] : 0.0;
    }

    double play_bots(int i) {
        Row& row = rows_[i];
        Game& g = row.g;
        double total = 0.0;
        while (!row.over && g.turn >= 0 && g.turn != config_.seat) {
            g.apply(row.bots[g.turn].act(g));
            total += learner_reward(row);
        }
        return total;
    }

    void step_one(int i, int action) {
        Row& row = rows_[i];
        row.steps += 1;
        bool truncated = config_.max_steps && row.steps >= config_.max_steps;
        row.g.apply(action);
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
        row.g.apply(action);
        double change[64];
        float* rewards = out_.rewards + static_cast<size_t>(i) * n();
        bool dealt = deal_rewards(row, change);
        for (int s = 0; s < n(); ++s) rewards[s] = dealt ? static_cast<float>(change[s]) : 0.0f;
        finish(i, truncated, actor);
    }

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
        Row& row = rows_[i];
        int seat = observed(i);
        row.legal = row.g.legal();
        encode(row.g, layout_, seat, out_.obs + static_cast<size_t>(i) * layout_.size);
        write_mask(row.legal, space_.size(), out_.mask + static_cast<size_t>(i) * space_.size());
        out_.to_act[i] = seat;
    }
};

}  // namespace vec
}  // namespace baebae

// -- the Python face -----------------------------------------------------------------------

namespace baebae_vector {

namespace py = pybind11;

template <class T>
T* buffer_of(py::array& array, py::ssize_t size, const char* what) {
    if (!py::isinstance<py::array_t<T>>(array) || array.size() != size ||
        !(array.flags() & py::array::c_style) || !array.writeable())
        throw py::value_error(std::string(what) + ": a writeable C-contiguous array of the right type and size");
    return static_cast<T*>(array.mutable_data());
}

// The batch with the arrays it writes and the compiled deck, kept alive while it lives.
struct Batch {
    baebae::vec::Vector vector;
    std::vector<py::array> held;
    std::shared_ptr<baebae_py::Compiled> compiled;

    Batch(const baebae::vec::Config& config, int num_envs, std::shared_ptr<baebae_py::Compiled> deck)
        : vector(config, num_envs), compiled(std::move(deck)) {}

    void bind(py::array obs, py::array mask, py::array rewards, py::array terminated, py::array truncated,
              py::array to_act, py::array final_obs, int reward_width) {
        py::ssize_t n = vector.num_envs(), size = vector.size();
        vector.bind(baebae::vec::Buffers{
            buffer_of<float>(obs, n * size, "observations"), buffer_of<int8_t>(mask, n * vector.actions(), "masks"),
            buffer_of<float>(rewards, n * reward_width, "rewards"), buffer_of<bool>(terminated, n, "terminated"),
            buffer_of<bool>(truncated, n, "truncated"), buffer_of<int64_t>(to_act, n, "to_act"),
            buffer_of<float>(final_obs, n * size, "final observations")});
        held = {obs, mask, rewards, terminated, truncated, to_act, final_obs};
    }
};

inline void check_row(const Batch& b, int i) {
    if (i < 0 || i >= b.vector.num_envs()) throw py::value_error("no such row");
}

// A row's state beside its game, as plain values (baha_vector.hpp's row_words).
inline py::tuple row_words(const baebae::vec::Row& row) {
    py::list bots;
    for (const baebae::vec::Bot& bot : row.bots) bots.append(bot.player.rng.dump());
    return py::make_tuple(row.seeds.dump(), bots, row.start, row.deal, row.first, row.deals, row.steps, row.pending,
                          row.over);
}

inline void set_row_words(baebae::vec::Row& row, const py::tuple& words) {
    auto fail = []() { throw py::value_error("not the state of a row of this batch"); };
    if (words.size() != 9) fail();
    auto bots = words[1].cast<std::vector<std::vector<uint64_t>>>();
    auto start = words[2].cast<std::vector<int64_t>>();
    if (bots.size() != row.bots.size() || start.size() != row.start.size()) fail();
    baebae::vec::Row next = row;
    if (!next.seeds.load(words[0].cast<std::vector<uint64_t>>())) fail();
    for (size_t s = 0; s < bots.size(); ++s)
        if (!next.bots[s].player.rng.load(bots[s])) fail();
    next.start = start;
    next.deal = words[3].cast<int64_t>(), next.first = words[4].cast<int64_t>();
    next.deals = words[5].cast<int64_t>(), next.steps = words[6].cast<int64_t>();
    next.pending = words[7].cast<double>(), next.over = words[8].cast<bool>();
    row = std::move(next);
}

// A native BAEBAE state holds ``g`` (its own sink kept; its log and history emptied).
inline void put_game(py::handle state, const baebae::Game& g) {
    baebae_py::Core& core = baebae_py::core_of(state);
    if (core.g.n != g.n) throw py::value_error("a state of another table size");
    baebae::Sink* sink = core.g.sink;
    const baebae::Program* prog = core.g.prog;
    auto rules = core.g.rules;
    core.g = g;
    core.g.sink = sink, core.g.prog = prog, core.g.rules = rules;
    core.log = py::list();
    core.history = py::list();
    core.round_start = 0;
    core.has_legal = false;
}

inline void register_baebae_vector(py::module_& m) {
    m.def(
        "baebae_observe",
        [](py::handle state, int seat, py::array out) {
            const baebae_py::Core& core = baebae_py::core_of(state);
            const baebae::Game& g = core.g;
            baebae::Layout layout(*g.prog, g.n, g.rules.hand_size);
            if (seat < 0 || seat >= g.n) throw py::value_error("no such seat");
            baebae::encode(g, layout, seat, buffer_of<float>(out, layout.size, "out"));
        },
        py::arg("state"), py::arg("seat"), py::arg("out"));

    py::class_<Batch>(m, "BaebaeVector", "BAEBAE's vector environment (cardroom.games.baebae.vector drives it).")
        .def(py::init([](std::shared_ptr<baebae_py::Compiled> compiled, int players, int rounds, int hand_size,
                         int turn_limit, bool draw_when_able, bool chosen_once, int num_envs, bool self_play, int seat,
                         const std::vector<bool>& heuristic, int64_t deals, int64_t max_steps, bool zero_sum,
                         bool split) {
                 if (players < 2 || players > 64 || static_cast<int>(heuristic.size()) != players || num_envs < 1 ||
                     seat < 0 || seat >= players || hand_size < 1 || rounds < 1)
                     throw py::value_error("BaebaeVector: bad players, seat, bots, rules or num_envs");
                 baebae::vec::Config config;
                 config.rules = baebae_py::rules_of(*compiled, players, rounds, hand_size, turn_limit, draw_when_able,
                                                    chosen_once, split);
                 config.self_play = self_play, config.seat = seat, config.heuristic = heuristic;
                 config.deals = deals, config.max_steps = max_steps, config.zero_sum = zero_sum;
                 return new Batch(config, num_envs, compiled);
             }),
             py::arg("program"), py::arg("players"), py::arg("rounds"), py::arg("hand_size"), py::arg("turn_limit"),
             py::arg("draw_when_able"), py::arg("chosen_once"), py::arg("num_envs"), py::arg("self_play"),
             py::arg("seat"), py::arg("heuristic"), py::arg("deals"), py::arg("max_steps"), py::arg("zero_sum"),
             py::arg("split") = false)
        .def_property_readonly("size", [](const Batch& b) { return b.vector.size(); })
        .def_property_readonly("actions", [](const Batch& b) { return b.vector.actions(); })
        .def("bind", &Batch::bind)
        .def("reset",
             [](Batch& b, const std::vector<uint64_t>& rows, const std::vector<int64_t>& seeds) {
                 if (rows.size() != seeds.size()) throw py::value_error("one seed a row");
                 for (uint64_t i : rows)
                     if (i >= static_cast<uint64_t>(b.vector.num_envs())) throw py::value_error("no such row");
                 std::string skipped;
                 {
                     py::gil_scoped_release unlocked;  // only the batch's own memory is touched
                     try {
                         for (size_t k = 0; k < rows.size(); ++k) b.vector.reset(static_cast<int>(rows[k]), seeds[k]);
                     } catch (const baebae::vec::Skipped& error) {
                         skipped = error.what();
                     }
                 }
                 return skipped;
             })
        .def("step",
             [](Batch& b, const py::array_t<int64_t, py::array::c_style>& actions) -> py::object {
                 if (actions.size() != b.vector.num_envs()) throw py::value_error("one action a row");
                 const int64_t* given = actions.data();
                 int64_t bad = -1;
                 std::string skipped;
                 {
                     py::gil_scoped_release unlocked;  // only the batch's memory and the bound arrays
                     bad = b.vector.check(given);
                     try {
                         if (bad < 0) b.vector.step(given);
                     } catch (const baebae::vec::Skipped& error) {
                         skipped = error.what();
                     }
                 }
                 if (!skipped.empty()) return py::str(skipped);
                 return py::int_(bad);
             })
        .def("legal_actions",
             [](const Batch& b, int i) {
                 if (i < 0 || i >= b.vector.num_envs()) throw py::value_error("no such row");
                 return b.vector.legal(i);
             })
        .def("turn", [](const Batch& b, int i) {
            if (i < 0 || i >= b.vector.num_envs()) throw py::value_error("no such row");
            return b.vector.game(i).turn;
        })
        .def("global_state",
             [](const Batch& b, py::array out) {
                 const baebae::vec::Vector& v = b.vector;
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
             [](Batch& b, int i, py::handle state) {
                 check_row(b, i);
                 const baebae::vec::Row& row = b.vector.row(i);
                 put_game(state, row.g);
                 return row_words(row);
             })
        .def("set_row_state",
             [](Batch& b, int i, py::handle state, const py::tuple& words) {
                 check_row(b, i);
                 const baebae::Game& g = baebae_py::core_of(state).g;
                 if (g.n != b.vector.config().rules.players) throw py::value_error("a position of another table size");
                 set_row_words(b.vector.row(i), words);
                 b.vector.restore(i, g);
                 b.vector.rewrite(i);
             })
        .def("load", [](Batch& b, int i, py::handle state, uint64_t seed) {
            check_row(b, i);
            const baebae::Game& g = baebae_py::core_of(state).g;
            if (g.n != b.vector.config().rules.players) throw py::value_error("a position of another table size");
            return b.vector.load(i, g, seed);
        });
}

}  // namespace baebae_vector
}  // namespace cardroom
