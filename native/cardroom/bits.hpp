// Bit tricks on 64-bit card masks, shared by both games (a Baha hand is one word; a BAEBAE deck
// of up to 64 cards is one word, a larger one several).
#pragma once

#include <cstdint>

namespace cardroom {

// The bits set: the CPU's instruction where the build may use it, else a branch-free count in
// place (the portable build's __builtin_popcountll is a call into libgcc, 12% of a batch).
inline int popcount64(uint64_t mask) {
#ifdef __POPCNT__
    return __builtin_popcountll(mask);
#else
    mask -= (mask >> 1) & 0x5555555555555555ULL;
    mask = (mask & 0x3333333333333333ULL) + ((mask >> 2) & 0x3333333333333333ULL);
    mask = (mask + (mask >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return static_cast<int>((mask * 0x0101010101010101ULL) >> 56);
#endif
}

// The place of the k-th lowest bit set in ``mask`` (k from 0, below the bits set): a random
// agent's pick among the cards of a mask. Clearing the lowest bit k times in a loop mispredicted
// the loop's exit at almost every pick (k is drawn at random); the first three clears are
// arithmetic instead (mask &= mask - 0 changes nothing), the loop left to a larger k (rarer:
// few cards of a hand are playable at once).
inline int nth_bit(uint64_t mask, int k) {
    for (; k > 3; --k) mask &= mask - 1;
    mask &= mask - static_cast<uint64_t>(k > 0);
    mask &= mask - static_cast<uint64_t>(k > 1);
    mask &= mask - static_cast<uint64_t>(k > 2);
    return __builtin_ctzll(mask);
}

}  // namespace cardroom
