// A fast random stream for search (ISMCTS and its determinizations): xoshiro256** seeded by
// SplitMix64, with an unbiased bounded draw (Lemire's multiply-shift with rejection).
// Not Python's stream: a search's numbers need only be repeatable for one seed, not equal
// to the Python search's (whose worlds the native ones match as sets, not draw for draw).
#pragma once

#include <cstdint>

namespace cardroom {

inline uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

class Rng {
  public:
    explicit Rng(uint64_t seed = 0) {
        for (uint64_t& word : s_) word = splitmix64(seed);
    }

    uint64_t next() {
        uint64_t result = rotl(s_[1] * 5, 7) * 9;
        uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }

    // A uniform whole number in [0, n), n >= 1.
    uint64_t below(uint64_t n) {
        unsigned __int128 m = static_cast<unsigned __int128>(next()) * n;
        uint64_t low = static_cast<uint64_t>(m);
        if (low < n) {
            uint64_t floor = (0 - n) % n;
            while (low < floor) {
                m = static_cast<unsigned __int128>(next()) * n;
                low = static_cast<uint64_t>(m);
            }
        }
        return static_cast<uint64_t>(m >> 64);
    }

    // A uniform double in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }

    template <class T>
    void shuffle(T* x, int size) {
        for (int i = size - 1; i > 0; --i) {
            int j = static_cast<int>(below(static_cast<uint64_t>(i) + 1));
            T swap = x[i];
            x[i] = x[j];
            x[j] = swap;
        }
    }

  private:
    uint64_t s_[4];
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
};

}  // namespace cardroom
