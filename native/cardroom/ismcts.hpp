// Single-observer ISMCTS in C++, generic over a game's traits: the algorithm of
// agents/ismcts.py, step for step.
//
// Each iteration deals the hidden cards again from the searcher's knowledge, walks one tree
// keyed by what the searcher observes (its own actions by action, another seat's by its
// public form, HIDDEN when the searcher cannot see it; a hidden edge's move is the roll-out
// policy's in that world), expands one edge (chosen at random among the untried), rolls out
// to the end of the deal and backs up each edge's actor's return. Selection is UCB1 with
// availability counts; ties go to the first key in the order of the legal actions. The move
// is the root's most visited legal action (then the highest total reward, then the first).
//
// Root parallel: ``threads`` trees, each with its own random stream (seeded from the search's
// seed and its index) and its share of the iterations (or all of them running until the
// deadline), their root statistics summed. A game plugs in through a traits struct:
//
//   World                        a full state the search may change
//   Root                         the position searched from and the searcher's knowledge
//   Player                       a thread's roll-out helpers (its heuristic player)
//   MAX_ACTIONS                  actions are 0 .. MAX_ACTIONS - 1; HIDDEN is -1
//   player(rng)                  a thread's Player
//   world(root, rng, world)      ``world`` becomes one determinization of the root (or
//   world(root, rng, world, player), when a game has it: the thread's Player may keep state)
//   deal(world), live(world, deal), actor(world)
//   legal(world, out) -> size    the legal actions, ascending
//   key(world, action, seat)     the action as ``seat`` observes it (or HIDDEN)
//   apply(world, action)
//   policy(world, legal, size, player, rng, options) -> action  the roll-out policy's move
//   rollout(world, deal, player, rng, options)                  to the end of the deal
//   returns(world, out)          each seat's return
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <thread>
#include <vector>

#include "rng.hpp"

namespace cardroom {
namespace ismcts {

constexpr int HIDDEN = -1;

struct Options {
    int64_t iterations = 1000;  // the whole search's (shared among the threads)
    double seconds = 0;         // > 0: run to this deadline instead (each thread)
    double exploration = 0.7;   // the UCB constant
    bool heuristic = true;      // roll-outs by the game's heuristic (else at random)
    double epsilon = 0.1;       // chance of a random move in a heuristic roll-out
    int max_depth = 200;
    uint64_t seed = 0;
    int threads = 1;
    // A prior over the searcher's moves at the root (indexed by action; empty: none). With one,
    // the root's edges are chosen by PUCT: mean reward + exploration * prior * sqrt(visits at
    // the root) / (1 + the edge's visits), an untried edge valued at 0 (the table's mean).
    std::vector<double> root_prior;
};

// What a search found at its root: per key, the summed visits and rewards; and the iterations.
struct RootStat {
    int key;
    int64_t visits;
    double reward;
};

struct Result {
    std::vector<RootStat> root;
    int64_t iterations = 0;
};

template <class Traits>
class Tree {
  public:
    using World = typename Traits::World;
    using Root = typename Traits::Root;
    using Player = typename Traits::Player;

    Tree(const Root& root, int seat, const Options& options, uint64_t seed)
        : root_(root), seat_(seat), options_(options), rng_(seed), player_(Traits::player(rng_)) {
        nodes_.emplace_back();
        for (int& s : slot_) s = -1;
        for (int& s : stamp_) s = 0;
    }

    void iterate() {
        deal_world<Traits>(root_, rng_, world_, player_, 0);
        World& world = world_;
        int64_t deal = Traits::deal(world);
        path_.clear();
        int node = 0;
        int depth = 0;
        bool expanded = false;
        int legal[Traits::MAX_ACTIONS];
        int keys[Traits::MAX_ACTIONS];
        int untried[Traits::MAX_ACTIONS];
        while (Traits::live(world, deal) && depth < options_.max_depth) {
            int actor = Traits::actor(world);
            int size = Traits::legal(world, legal);
            int nkeys = keys_of(world, legal, size, actor, keys);
            std::vector<int>& children = nodes_[node].edges;
            for (int e : children) slot_[edges_[e].key + 1] = e;
            int nuntried = 0;
            for (int i = 0; i < nkeys; ++i) {
                int e = slot_[keys[i] + 1];
                if (e < 0)
                    untried[nuntried++] = keys[i];
                else
                    ++edges_[e].available;
            }
            int edge;
            if (node == 0 && actor == seat_ && !options_.root_prior.empty()) {
                edge = root_puct(keys, nkeys);
                if (edge < 0) {  // the best is an untried move: expand it
                    int key = -edge - 1;
                    edge = static_cast<int>(edges_.size());
                    int child = static_cast<int>(nodes_.size());
                    edges_.push_back(Edge{key, 0, 1, 0.0, child});
                    nodes_.emplace_back();
                    nodes_[node].edges.push_back(edge);
                    expanded = true;
                }
            } else if (nuntried && !expanded) {
                int key = untried[rng_.below(static_cast<uint64_t>(nuntried))];
                edge = static_cast<int>(edges_.size());
                int child = static_cast<int>(nodes_.size());
                edges_.push_back(Edge{key, 0, 1, 0.0, child});
                nodes_.emplace_back();  // may move nodes_: ``children`` is not used after this
                nodes_[node].edges.push_back(edge);
                expanded = true;
            } else if (nuntried) {
                clear_slots(node);
                break;  // leave the tree: the roll-out takes it from here
            } else {
                edge = select(keys, nkeys);
            }
            clear_slots(node);
            int key = edges_[edge].key;
            int action = key != HIDDEN ? key : Traits::policy(world, legal, size, player_, rng_, options_);
            Traits::apply(world, action);
            path_.push_back(Step{edge, actor});
            node = edges_[edge].child;
            ++depth;
            if (expanded) break;
        }
        Traits::rollout(world, deal, player_, rng_, options_);
        double returns[16];
        Traits::returns(world, returns);
        for (const Step& step : path_) {
            Edge& e = edges_[step.edge];
            ++e.visits;
            e.reward += returns[step.actor];
        }
    }

    // The root's statistics, key by key.
    void root_stats(std::vector<RootStat>& out) const {
        for (int e : nodes_[0].edges) out.push_back(RootStat{edges_[e].key, edges_[e].visits, edges_[e].reward});
    }

  private:
    struct Edge {
        int key;
        int64_t visits;
        int64_t available;
        double reward;
        int child;
    };
    struct Node {
        std::vector<int> edges;
    };
    struct Step {
        int edge;
        int actor;
    };

    const Root& root_;
    int seat_;
    Options options_;
    Rng rng_;
    Player player_;
    World world_{};
    std::vector<Node> nodes_;
    std::vector<Edge> edges_;
    std::vector<Step> path_;
    int slot_[Traits::MAX_ACTIONS + 1];   // key + 1 -> edge of the node being visited, or -1
    int stamp_[Traits::MAX_ACTIONS + 1];  // key + 1 -> the last call of keys_of that saw it
    int stamps_ = 0;

    // Traits::world(root, rng, world, player) when the game has it (a world chosen with the
    // thread's helpers, e.g. from a weighted pool: ismcts_infer.hpp), else world(root, rng, world).
    template <class T>
    static auto deal_world(const Root& root, Rng& rng, World& world, Player& player, int)
        -> decltype(T::world(root, rng, world, player)) {
        return T::world(root, rng, world, player);
    }
    template <class T>
    static void deal_world(const Root& root, Rng& rng, World& world, Player&, long) {
        T::world(root, rng, world);
    }

    void clear_slots(int node) {
        for (int e : nodes_[node].edges) slot_[edges_[e].key + 1] = -1;
    }

    // The edges out of this decision as the searcher observes them (ordered, unique).
    int keys_of(const World& world, const int* legal, int size, int actor, int* keys) {
        if (actor == seat_) {
            for (int i = 0; i < size; ++i) keys[i] = legal[i];
            return size;
        }
        ++stamps_;
        int n = 0;
        for (int i = 0; i < size; ++i) {
            int key = Traits::key(world, legal[i], seat_);
            if (stamp_[key + 1] == stamps_) continue;
            stamp_[key + 1] = stamps_;
            keys[n++] = key;
        }
        return n;
    }

    // PUCT over the root prior (see Options): the chosen edge, or -(key + 1) for an untried key.
    int root_puct(const int* keys, int nkeys) const {
        double c = options_.exploration;
        int64_t total = 1;
        for (int e : nodes_[0].edges) total += edges_[e].visits;
        double root = std::sqrt(static_cast<double>(total));
        const std::vector<double>& prior = options_.root_prior;
        int best_edge = 0;
        bool found = false;
        double best = -std::numeric_limits<double>::infinity();
        for (int i = 0; i < nkeys; ++i) {
            int key = keys[i];
            double p = key >= 0 && static_cast<size_t>(key) < prior.size() ? prior[key] : 0.0;
            int e = slot_[key + 1];
            double value;
            if (e < 0 || edges_[e].visits == 0) {
                value = c * p * root;
            } else {
                double visits = static_cast<double>(edges_[e].visits);
                value = edges_[e].reward / visits + c * p * root / (1 + visits);
            }
            if (!found || value > best) {
                best = value;
                best_edge = e < 0 ? -key - 1 : e;
                found = true;
            }
        }
        return best_edge;
    }

    int select(const int* keys, int nkeys) const {
        double c = options_.exploration;
        int best_edge = -1;
        double best = -std::numeric_limits<double>::infinity();
        for (int i = 0; i < nkeys; ++i) {
            int e = slot_[keys[i] + 1];
            const Edge& edge = edges_[e];
            double visits = static_cast<double>(edge.visits);
            double value = edge.reward / visits + c * std::sqrt(std::log(static_cast<double>(edge.available)) / visits);
            if (value > best || best_edge < 0) {
                best = value;
                best_edge = e;
            }
        }
        return best_edge;
    }
};

// One search: ``options.threads`` trees (root parallel), their root statistics summed.
template <class Traits>
Result search(const typename Traits::Root& root, int seat, const Options& options) {
    using Clock = std::chrono::steady_clock;
    int threads = options.threads < 1 ? 1 : options.threads;
    bool timed = options.seconds > 0;
    Clock::time_point deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.seconds));
    std::vector<std::vector<RootStat>> found(threads);
    std::vector<int64_t> done(threads, 0);
    std::vector<std::exception_ptr> errors(threads);
    uint64_t chain = options.seed;
    std::vector<uint64_t> seeds(threads);
    for (uint64_t& s : seeds) s = splitmix64(chain);
    auto work = [&](int t) {
        try {
            Tree<Traits> tree(root, seat, options, seeds[t]);
            int64_t share = options.iterations / threads + (t < options.iterations % threads ? 1 : 0);
            int64_t count = 0;
            while (timed ? (count == 0 || Clock::now() < deadline) : count < share) {
                tree.iterate();
                ++count;
            }
            done[t] = count;
            tree.root_stats(found[t]);
        } catch (...) {
            errors[t] = std::current_exception();
        }
    };
    if (threads == 1) {
        work(0);
    } else {
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t) pool.emplace_back(work, t);
        for (std::thread& thread : pool) thread.join();
    }
    for (const std::exception_ptr& error : errors)
        if (error) std::rethrow_exception(error);
    Result result;
    for (int t = 0; t < threads; ++t) {
        result.iterations += done[t];
        for (const RootStat& stat : found[t]) {
            bool merged = false;
            for (RootStat& have : result.root) {
                if (have.key == stat.key) {
                    have.visits += stat.visits;
                    have.reward += stat.reward;
                    merged = true;
                    break;
                }
            }
            if (!merged) result.root.push_back(stat);
        }
    }
    return result;
}

// The move: among ``legal`` (ascending), the most visited at the root, then the highest reward,
// the first of equals; the first legal action when the root has none of them.
inline int best_action(const Result& result, const int* legal, int size) {
    int best = -1;
    int64_t visits = 0;
    double reward = 0;
    for (int i = 0; i < size; ++i) {
        for (const RootStat& stat : result.root) {
            if (stat.key != legal[i]) continue;
            if (best < 0 || stat.visits > visits || (stat.visits == visits && stat.reward > reward)) {
                best = legal[i];
                visits = stat.visits;
                reward = stat.reward;
            }
        }
    }
    return best < 0 ? legal[0] : best;
}

}  // namespace ismcts
}  // namespace cardroom
