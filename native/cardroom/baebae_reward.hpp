// What a BAEBAE search rewards: the ``ismcts`` agent's ``reward`` option.
//
// ``points`` (the default): each total's distance below the table's mean, in tens
// (BaebaeState.returns). ``win``: each seat's share of the game's win, less 1/n so the table's
// mean is 0. When the game is over the share is exact (1 for the lowest total, ties split); in an
// earlier round it is a stand-in for the chance of winning from the totals so far: a softmax of
// minus each total over ``temperature * sqrt(rounds still to score)`` penalty points, so a lead
// counts for less the more rounds remain. games/baebae/reward.py computes the same, number for
// number.
#pragma once

#include <cmath>
#include <cstdint>

namespace cardroom {
namespace baebae {

// ``rounds_left``: the rounds whose penalties are not yet in ``totals`` (0 once the game is over).
inline void win_returns(const int64_t* totals, int n, int64_t rounds_left, double temperature, double* out) {
    int64_t best = totals[0];
    for (int s = 1; s < n; ++s) best = totals[s] < best ? totals[s] : best;
    double share[16];
    double sum = 0;
    if (rounds_left <= 0) {
        for (int s = 0; s < n; ++s) sum += share[s] = totals[s] == best ? 1.0 : 0.0;
    } else {
        double scale = temperature * std::sqrt(static_cast<double>(rounds_left));
        for (int s = 0; s < n; ++s) sum += share[s] = std::exp(-static_cast<double>(totals[s] - best) / scale);
    }
    for (int s = 0; s < n; ++s) out[s] = share[s] / sum - 1.0 / n;
}

}  // namespace baebae
}  // namespace cardroom
