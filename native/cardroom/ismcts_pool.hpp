// A search tree's pool of weighted worlds, for the inference of hidden hands (Baha's
// ismcts_infer.hpp, BAEBAE's baebae_infer.hpp): ``size`` worlds dealt and each weighed once by
// the game's model (or dealt afresh each iteration), then every iteration's world drawn in
// proportion to the weights (importance resampling, with replacement).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "cardroom/rng.hpp"

namespace cardroom {
namespace ismcts {

template <class World>
struct Pool {
    bool built = false;
    std::vector<World> worlds;
    std::vector<double> cumulative;

    // ``deal(rng, world)`` deals each world; ``log_weight(world)`` is the log of its weight.
    template <class Deal, class LogWeight>
    void build(int size, Rng& rng, Deal deal, LogWeight log_weight) {
        built = true;
        worlds.resize(static_cast<size_t>(size));
        std::vector<double> logs(worlds.size());
        double top = -std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < worlds.size(); ++i) {
            deal(rng, worlds[i]);
            logs[i] = log_weight(worlds[i]);
            top = std::max(top, logs[i]);
        }
        cumulative.resize(worlds.size());
        double sum = 0;
        for (size_t i = 0; i < worlds.size(); ++i) {
            // every world impossible (cannot happen with a model's noise above 0): weigh them alike
            sum += std::isfinite(top) ? std::exp(logs[i] - top) : 1.0;
            cumulative[i] = sum;
        }
    }

    // One world drawn in proportion to the weights.
    const World& draw(Rng& rng) const {
        double u = rng.uniform() * cumulative.back();
        size_t i = static_cast<size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
        return worlds[std::min(i, worlds.size() - 1)];
    }
};

}  // namespace ismcts
}  // namespace cardroom
