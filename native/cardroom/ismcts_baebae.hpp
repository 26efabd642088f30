// BAEBAE in the native ISMCTS (ismcts.hpp): its traits, its determinization and the Python
// face of both (register_baebae_ismcts).
//
// What the seat knows is read once per search, with the GIL held, in C++ from the seat's view
// of the round's events (baebae_knowledge.hpp: the reference's determinize.knowledge, rule for
// rule) and handed here as design numbers: per seat the designs known to be in its hand and the groups of its hidden cards with
// the designs each cannot hold; the hidden designs (the pool). Every iteration then deals a
// world in C++ from it, as determinize.determinize and _deal do: the pool shuffled, the hands of
// a player deciding on a drawn card or choosing cards for a step dealt first (the drawn card one
// of its hidden cards; enough fitting cards of two designs or more for the choice), then the
// hands with groups, each group from the first cards of the pool it may hold, tried again
// (20 times) and then dealt without the groups; the rest is the stockpile. The worlds are the
// same set as the reference's (not the same draws: the search's own stream deals them).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cardroom/baebae.hpp"
#include "cardroom/baebae_heuristic.hpp"
#include "cardroom/baebae_infer.hpp"
#include "cardroom/baebae_module.hpp"
#include "cardroom/baebae_reward.hpp"
#include "cardroom/ismcts.hpp"
#include "cardroom/ismcts_options.hpp"
#include "cardroom/rng.hpp"

namespace cardroom {
namespace baebae {

// determinize.Knowledge, in design numbers.
struct Group {
    std::vector<uint8_t> forbidden;  // per design (empty: none forbidden)
    int count = 0;
};

struct SeatKnowledge {
    int seat = 0;
    std::vector<std::vector<int>> known;    // per seat: designs known in its hand (with repeats)
    std::vector<std::vector<Group>> groups;  // per seat: oldest first
    std::vector<int> pool;                  // designs of the hidden cards
};

struct SearchRoot {
    Game game;
    SeatKnowledge knowledge;
    std::vector<std::vector<int>> free;  // per design: its physical cards in no public place nor the seat's hand
    std::vector<int> order;              // the other seats, in dealing order
    int drawn_by = -1, chooser = -1, filter = -1, least = 0;
    bool reselect = false;  // another seat's select decision: its candidates come from its dealt hand
    // What the search rewards (baebae_reward.hpp): false, the points; true, the share of the win,
    // smoothed over ``win_temperature`` penalty points a square root of the rounds left.
    bool win = false;
    double win_temperature = 8.0;
    // Roll-outs to the game's end (the totals of every round played out), not the round's.
    bool whole_game = false;
    // What the worlds are dealt from: 0, the seat's knowledge (the search every agent runs);
    // for benchmarks/baebae_sight.py only, never an agent's option (it sees hidden cards):
    // 1, every hand as it is (the stockpile shuffled again), 2, every hand and the stockpile's
    // order. A bound on what knowing more is worth, not a player.
    int sight = 0;
    // Inference (baebae_infer.hpp): a pool of ``infer`` worlds per tree, weighed by the other
    // seats' observed plays under the softened heuristic with noise ``infer_epsilon``; 0: none.
    int infer = 0;
    double infer_epsilon = 0.25;
    bool infer_fresh = false;  // a new pool every iteration (else one per tree)
    std::vector<infer::Decision> observed;
};

constexpr int TRIES = 20;

inline SearchRoot make_root(const Game& g, SeatKnowledge k) {
    SearchRoot root{g, std::move(k), {}, {}, -1, -1, -1, 0, false};
    const Program* p = g.prog;
    int seat = root.knowledge.seat;
    root.free.assign(p->designs.size(), {});
    Bits pub(p->words);
    for (int pid : g.discard) pub.set(pid);
    for (int pid = 0; pid < p->cards(); ++pid)
        if (!pub.has(pid) && !g.hands[seat].has(pid)) root.free[p->card_of[pid]].push_back(pid);
    if (g.phase == DRAWN && g.turn != seat) root.drawn_by = g.turn;
    const Decision& d = g.pending;
    if (g.phase == DECIDE && d.kind == K_SELECT && d.seat != seat) {
        root.reselect = true;
        if (!d.may_stop) {
            const Frame& f = g.frames.back();
            root.chooser = d.seat;
            root.filter = p->step(f.list, f.index).filter;
            root.least = f.left + 1;
        }
    }
    // Constrained hands first: the drawer or chooser, then hands with groups (a stable sort).
    std::vector<std::pair<std::pair<int, int>, int>> keyed;
    for (int s = 0; s < g.n; ++s) {
        if (s == seat) continue;
        bool grouped = false;
        for (const Group& gr : root.knowledge.groups[s]) grouped = grouped || !gr.forbidden.empty();
        keyed.push_back({{s == root.chooser || s == root.drawn_by ? 0 : 1, grouped ? 0 : 1}, s});
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& entry : keyed) root.order.push_back(entry.second);
    return root;
}

// One world: ``world`` becomes ``root.game`` with the other hands and the stock dealt again.
struct Dealer {
    const SearchRoot* root;
    std::vector<int> pool, work;
    std::vector<std::vector<int>> hands;  // per seat: dealt designs (a drawn card first)
    std::vector<std::vector<int>> free;
    std::vector<Group> parts;
    std::vector<int> picked;

    bool fits(int design) const {
        return root->filter < 0 || root->game.prog->filters[root->filter][design];
    }

    void newest(int k) {
        while (k > 0 && !parts.empty()) {
            int take = std::min(k, parts.back().count);
            parts.back().count -= take;
            k -= take;
            if (parts.back().count == 0) parts.pop_back();
        }
    }

    // _enough_to_choose: places in ``work`` of cards that with the known fitting ones make
    // ``least`` fitting cards of two designs or more.
    void enough(const std::vector<int>& have) {
        picked.clear();
        std::vector<int> designs;
        for (int d : have)
            if (std::find(designs.begin(), designs.end(), d) == designs.end()) designs.push_back(d);
        int count = static_cast<int>(have.size());
        for (size_t i = 0; i < work.size() && designs.size() < 2; ++i) {
            int d = work[i];
            if (fits(d) && std::find(designs.begin(), designs.end(), d) == designs.end()) {
                picked.push_back(static_cast<int>(i));
                designs.push_back(d);
                ++count;
            }
        }
        for (size_t i = 0; i < work.size() && count < root->least; ++i) {
            if (fits(work[i]) && std::find(picked.begin(), picked.end(), static_cast<int>(i)) == picked.end()) {
                picked.push_back(static_cast<int>(i));
                ++count;
            }
        }
    }

    // _deal: false when the groups cannot all be met.
    bool deal(bool with_groups) {
        const SeatKnowledge& k = root->knowledge;
        work = pool;
        for (int p : root->order) {
            std::vector<int>& keys = hands[p];
            keys.clear();
            parts.clear();
            int slots = 0;
            for (const Group& gr : k.groups[p]) slots += gr.count;
            if (with_groups) {
                parts = k.groups[p];
            } else if (slots) {
                parts.push_back(Group{{}, slots});
            }
            if (p == root->drawn_by && !work.empty()) {
                keys.push_back(work.front());
                work.erase(work.begin());
                newest(1);
            }
            bool any = false;
            for (const Group& gr : parts) any = any || gr.count > 0;
            if (p == root->chooser && any) {
                std::vector<int> have;
                for (int d : k.known[p])
                    if (fits(d)) have.push_back(d);
                enough(have);
                std::sort(picked.begin(), picked.end(), std::greater<int>());
                for (int i : picked) {
                    keys.push_back(work[i]);
                    work.erase(work.begin() + i);
                }
                newest(static_cast<int>(picked.size()));
            }
            for (const Group& gr : parts) {
                if (gr.forbidden.empty()) {
                    // as the reference's slice: never past the pool's end (a consistent knowledge
                    // has as many hidden cards as places, so this only guards the memory)
                    auto end = work.begin() + std::min<std::ptrdiff_t>(gr.count, static_cast<std::ptrdiff_t>(work.size()));
                    keys.insert(keys.end(), work.begin(), end);
                    work.erase(work.begin(), end);
                    continue;
                }
                std::vector<int> chosen;
                for (size_t i = 0; i < work.size() && static_cast<int>(chosen.size()) < gr.count; ++i)
                    if (!gr.forbidden[work[i]]) chosen.push_back(static_cast<int>(i));
                if (static_cast<int>(chosen.size()) < gr.count) return false;
                for (auto it = chosen.rbegin(); it != chosen.rend(); ++it) {
                    keys.push_back(work[*it]);
                    work.erase(work.begin() + *it);
                }
            }
        }
        return true;
    }

    // Returns whether the world met the groups (false: dealt without them after TRIES).
    bool world(Rng& rng, Game& w) {
        const Game& g = root->game;
        if (root->sight) {
            w = g;
            if (root->sight == 1) rng.shuffle(w.stock.data(), static_cast<int>(w.stock.size()));
            w.seed = std::to_string(rng.next() >> 1);
            return true;
        }
        pool = root->knowledge.pool;
        hands.assign(g.n, {});
        rng.shuffle(pool.data(), static_cast<int>(pool.size()));
        bool grouped = false;
        for (int attempt = 0; attempt <= TRIES; ++attempt) {
            if (attempt) rng.shuffle(pool.data(), static_cast<int>(pool.size()));
            if (deal(attempt < TRIES)) {
                grouped = attempt < TRIES;
                break;
            }
        }
        w = g;
        free = root->free;
        auto take = [this](int design) {
            if (free[design].empty()) throw std::invalid_argument("the knowledge holds more cards of a design than the deck");
            int pid = free[design].back();
            free[design].pop_back();
            return pid;
        };
        for (int p : root->order) {
            Bits hand(g.prog->words);
            std::vector<int> known = root->knowledge.known[p];
            std::sort(known.begin(), known.end());
            for (int d : known) hand.set(take(d));
            for (size_t i = 0; i < hands[p].size(); ++i) {
                int pid = take(hands[p][i]);
                hand.set(pid);
                if (p == root->drawn_by && i == 0) w.drawn = pid;
            }
            w.hands[p] = std::move(hand);
        }
        w.stock.clear();
        for (int d : work) w.stock.push_back(take(d));
        if (root->reselect) {
            const Frame& f = w.frames.back();
            w.pending.candidates = w.matching(w.pending.seat, g.prog->step(f.list, f.index).filter);
        }
        w.seed = std::to_string(rng.next() >> 1);  // the world's own chance (a reshuffle, a coin)
        return grouped;
    }
};

inline Sink& quiet_sink() {
    static Sink quiet = [] {  // every handler is a no-op: shared by every thread, made once
        Sink s;
        s.events = false;
        return s;
    }();
    return quiet;
}

struct SearchTraits {
    struct World {
        Game game;
        Dealer dealer;
    };
    using Root = SearchRoot;
    struct Player {
        Heuristic heuristic;
        infer::Pool pool;  // the tree's weighted worlds (with root.infer)
    };
    static constexpr int MAX_ACTIONS = 4096;  // some 2,000 designs: decks beyond are refused in words

    static Player player(Rng& rng) { return Player{Heuristic{PyRandom::splitmix(rng.next())}, {}}; }
    static void world(const Root& root, Rng& rng, World& world) {
        world.dealer.root = &root;
        world.dealer.world(rng, world.game);
        world.game.sink = &quiet_sink();
    }
    // With inference, the world is drawn from the tree's weighted pool (dealt on first use), its
    // chance seed drawn afresh.
    static void world(const Root& root, Rng& rng, World& world, Player& player) {
        if (root.infer <= 0 || root.observed.empty()) return SearchTraits::world(root, rng, world);
        if (!player.pool.built || root.infer_fresh) {
            Heuristic judge{PyRandom::splitmix(0)};  // the model draws nothing
            world.dealer.root = &root;
            player.pool.build(
                root.infer, rng, [&world](Rng& r, Game& w) { world.dealer.world(r, w); },
                [&](const Game& w) { return infer::log_likelihood(root.observed, w, root.infer_epsilon, judge); });
        }
        world.dealer.root = &root;
        world.game = player.pool.draw(rng);
        world.game.seed = std::to_string(rng.next() >> 1);
        world.game.sink = &quiet_sink();
    }
    // The deal the search plays out: the round, or (``whole_game``, -1) every round left.
    static int64_t deal(const World& w) { return w.dealer.root->whole_game ? -1 : w.game.round_no; }
    static bool live(const World& w, int64_t deal) {
        return w.game.phase != OVER && (deal < 0 || w.game.round_no == deal) && w.game.turn >= 0;
    }
    static int actor(const World& w) { return w.game.turn; }

    static int legal(const World& w, int* out) {
        std::vector<int> found = w.game.legal();
        std::sort(found.begin(), found.end());
        for (size_t i = 0; i < found.size(); ++i) out[i] = found[i];
        return static_cast<int>(found.size());
    }

    // BaebaeState.public_action: a card given between two others is hidden.
    static int key(const World& w, int action, int seat) {
        const Game& g = w.game;
        const Decision& d = g.pending;
        if (g.phase == DECIDE && d.kind == K_SELECT && d.purpose == P_GIVE && seat != d.seat &&
            seat != g.frames.back().receiver && action >= g.space.select() && action < g.space.draw())
            return ismcts::HIDDEN;
        return action;
    }

    static void apply(World& w, int action) { w.game.apply(action); }

    // ISMCTSAgent._policy: the heuristic's move but for a share epsilon of random ones.
    static int policy(World& w, const int* legal, int size, Player& player, Rng& rng, const ismcts::Options& o) {
        if (o.heuristic && rng.uniform() >= o.epsilon) return player.heuristic.act(w.game);
        return legal[rng.below(static_cast<uint64_t>(size))];
    }

    static void rollout(World& w, int64_t deal, Player& player, Rng& rng, const ismcts::Options& o) {
        int legal_actions[MAX_ACTIONS];
        while (live(w, deal)) {
            int size = legal(w, legal_actions);
            apply(w, policy(w, legal_actions, size, player, rng, o));
        }
    }

    // BaebaeState.returns: how far each total is below the table's mean, in tens; or, with the
    // ``win`` reward, each seat's share of the win (baebae_reward.hpp).
    static void returns(const World& w, double* out) {
        const Game& g = w.game;
        const SearchRoot& root = *w.dealer.root;
        if (root.win) {
            // the rounds not yet scored: none once over, else this one (cut short or not) and the rest
            int64_t left = g.phase == OVER ? 0 : g.rules.rounds - g.round_no + 1;
            win_returns(g.totals.data(), g.n, left, root.win_temperature, out);
            return;
        }
        double mean = 0;
        for (int s = 0; s < g.n; ++s) mean += static_cast<double>(g.totals[s]);
        mean /= g.n;
        for (int s = 0; s < g.n; ++s) out[s] = (mean - static_cast<double>(g.totals[s])) / 10.0;
    }
};

namespace search_py {

namespace py = pybind11;

// The knowledge as native.py hands it: (seat, known, groups, pool); known[s] a list of designs,
// groups[s] a list of (forbidden designs, count).
inline SeatKnowledge read_knowledge(const Game& g, const py::tuple& k) {
    SeatKnowledge out;
    out.seat = py::cast<int>(k[0]);
    if (out.seat < 0 || out.seat >= g.n) throw py::value_error("seat must be 0 to " + std::to_string(g.n - 1));
    size_t designs = g.prog->designs.size();
    auto design = [designs](py::handle h) {
        int d = py::cast<int>(h);
        if (d < 0 || static_cast<size_t>(d) >= designs) throw py::value_error("not a design of this deck");
        return d;
    };
    py::list known = k[1], groups = k[2], pool = k[3];
    if (static_cast<int>(py::len(known)) != g.n || static_cast<int>(py::len(groups)) != g.n)
        throw py::value_error("knowledge of one entry a seat");
    for (py::handle seat_known : known) {
        out.known.emplace_back();
        for (py::handle d : seat_known) out.known.back().push_back(design(d));
    }
    for (py::handle seat_groups : groups) {
        out.groups.emplace_back();
        for (py::handle entry : seat_groups) {
            py::tuple pair = py::reinterpret_borrow<py::tuple>(entry);
            Group gr;
            py::list forbidden = pair[0];
            if (py::len(forbidden)) {
                gr.forbidden.assign(designs, 0);
                for (py::handle d : forbidden) gr.forbidden[design(d)] = 1;
            }
            gr.count = py::cast<int>(pair[1]);
            out.groups.back().push_back(std::move(gr));
        }
    }
    for (py::handle d : pool) out.pool.push_back(design(d));
    return out;
}

}  // namespace search_py

// The Python face: a world dealt from the knowledge (for the tests) and the search.
inline void register_baebae_ismcts(pybind11::module_& m) {
    namespace py = pybind11;
    using baebae_py::Core;
    using search_py::read_knowledge;
    m.def(
        "baebae_determinize",
        [](py::handle world_state, py::handle state, const py::tuple& knowledge, uint64_t seed, py::list seen_log) {
            Core& into = baebae_py::core_of(world_state);
            const Core& from = baebae_py::core_of(state);
            SearchRoot root = make_root(from.g, read_knowledge(from.g, knowledge));
            Rng rng(seed);
            SearchTraits::World world;
            world.dealer.root = &root;
            bool grouped = world.dealer.world(rng, world.game);
            world.game.sink = nullptr;
            into.g = std::move(world.game);
            into.has_legal = false;
            Py_CLEAR(reinterpret_cast<baebae_py::CoreObject*>(world_state.ptr())->ref);
            into.log = std::move(seen_log);
            into.history = py::list();
            into.round_start = from.round_start;
            return py::make_tuple(into.g.seed, grouped);
        },
        py::arg("world"), py::arg("state"), py::arg("knowledge"), py::arg("seed"), py::arg("seen_log"));
    m.def(
        "baebae_ismcts",
        [](py::handle state, const py::tuple& knowledge, const ismcts::SearchOptions& options, const py::list& observed) {
            const Core& core = baebae_py::core_of(state);
            if (core.g.turn < 0) throw py::value_error("nobody is to act: there is nothing to search");
            if (core.g.space.size() > SearchTraits::MAX_ACTIONS)
                throw py::value_error("the native search takes decks of up to " +
                                      std::to_string(SearchTraits::MAX_ACTIONS) + " actions, this one has " +
                                      std::to_string(core.g.space.size()));
            SearchRoot root = make_root(core.g, read_knowledge(core.g, knowledge));
            root.win = options.win;
            root.win_temperature = options.win_temperature;
            root.whole_game = options.whole_game;
            root.sight = options.sight;
            ismcts::take_infer(root, options);
            if (options.infer > 0) root.observed = infer::from_python(observed, core.g);
            return ismcts::searched<SearchTraits>(root, root.knowledge.seat, options, [&root](int* legal) {
                SearchTraits::World at;
                at.game = root.game;
                return SearchTraits::legal(at, legal);
            });
        },
        py::arg("state"), py::arg("knowledge"), py::arg("options"), py::arg("observed") = py::list());
    m.def(
        "baebae_win_returns",
        [](std::vector<int64_t> totals, int64_t rounds_left, double temperature) {
            if (totals.empty() || totals.size() > 16) throw py::value_error("one total a seat, 1 to 16 seats");
            if (!(temperature > 0) || !std::isfinite(temperature))
                throw py::value_error("temperature must be a finite number more than 0");
            std::vector<double> out(totals.size());
            win_returns(totals.data(), static_cast<int>(totals.size()), rounds_left, temperature, out.data());
            return out;
        },
        py::arg("totals"), py::arg("rounds_left"), py::arg("temperature"));
}

}  // namespace baebae
}  // namespace cardroom
