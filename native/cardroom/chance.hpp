// Cardroom's chance stream in C++: the same numbers the Python engine draws.
//
// The Python engine derives each chance event's generator from the game's seed and the
// event's keys (engine.chance_rng): BLAKE2b of the text "seed:key:..." read as an int seeds
// Python's random.Random (a Mersenne Twister seeded by init_by_array), whose getrandbits,
// _randbelow, randrange, shuffle, sample, choice and random() the games call. Baha's deal
// (games/baha/deal.py) reads a 512-bit BLAKE2b digest as the choices of a Fisher-Yates shuffle.
// This header reproduces all of that bit for bit (tests/native/test_chance.py checks it
// against CPython on many seeds). BLAKE2b is written from RFC 7693; the Twister and its
// seeding follow the reference algorithm as CPython's _random module runs it.
//
// That is the Twister stream (rules' stream "twister"), every record's before the split stream
// came. New games play the split stream ("splitmix", engine.SplitMix): FNV-1a of the same text
// key starts a SplitMix64 sequence, read as engine.SplitMix reads it (docs/records.md, "Chance
// streams"). Both are one class here (PyRandom, its mode fixed when made), so every holder of a
// generator (the heuristics, the games' chance) serves either stream unchanged; chance_rng,
// baha_deck_order and seeded_rng below choose the stream.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace cardroom {

// -- BLAKE2b (RFC 7693), unkeyed, any digest size from 1 to 64 bytes ----------------------

namespace blake2b_detail {

constexpr uint64_t IV[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

constexpr uint8_t SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

inline uint64_t rotr(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

inline void mix(uint64_t* v, int a, int b, int c, int d, uint64_t x, uint64_t y) {
    v[a] = v[a] + v[b] + x;
    v[d] = rotr(v[d] ^ v[a], 32);
    v[c] = v[c] + v[d];
    v[b] = rotr(v[b] ^ v[c], 24);
    v[a] = v[a] + v[b] + y;
    v[d] = rotr(v[d] ^ v[a], 16);
    v[c] = v[c] + v[d];
    v[b] = rotr(v[b] ^ v[c], 63);
}

inline void compress(uint64_t* h, const uint8_t* block, uint64_t counted, bool last) {
    uint64_t m[16];
    for (int i = 0; i < 16; ++i) {
        uint64_t w = 0;
        for (int b = 7; b >= 0; --b) w = (w << 8) | block[8 * i + b];  // little-endian words
        m[i] = w;
    }
    uint64_t v[16];
    for (int i = 0; i < 8; ++i) {
        v[i] = h[i];
        v[i + 8] = IV[i];
    }
    v[12] ^= counted;  // the byte counter's low word; messages here are far below 2**64 bytes
    if (last) v[14] = ~v[14];
    for (int r = 0; r < 12; ++r) {
        const uint8_t* s = SIGMA[r];
        mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
        mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
        mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
        mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
        mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
        mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
        mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
        mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; ++i) h[i] ^= v[i] ^ v[i + 8];
}

}  // namespace blake2b_detail

// The digest of ``data`` (``size`` bytes long, 1..64) written to ``out``.
inline void blake2b(const void* data, size_t length, uint8_t* out, int size) {
    using namespace blake2b_detail;
    uint64_t h[8];
    for (int i = 0; i < 8; ++i) h[i] = IV[i];
    h[0] ^= 0x01010000ULL ^ static_cast<uint64_t>(size);
    const uint8_t* bytes = static_cast<const uint8_t*>(data);
    uint64_t counted = 0;
    while (length > 128) {  // every full block but the last is compressed as not last
        counted += 128;
        compress(h, bytes, counted, false);
        bytes += 128;
        length -= 128;
    }
    uint8_t block[128] = {0};
    std::memcpy(block, bytes, length);
    counted += length;
    compress(h, block, counted, true);
    for (int i = 0; i < size; ++i) out[i] = static_cast<uint8_t>(h[i / 8] >> (8 * (i % 8)));
}

// -- Python's Mersenne Twister --------------------------------------------------------------

enum class Stream : uint8_t { Twister = 0, SplitMix = 1 };

// FNV-1a, 64 bits, of ``size`` bytes: the split stream's first state for a text key. ``h``: the
// hash of the text before these bytes (the offset basis for none), to hash a text in parts.
inline uint64_t key_hash(const char* data, size_t size, uint64_t h = 0xcbf29ce484222325ULL) {
    for (size_t i = 0; i < size; ++i) h = (h ^ static_cast<uint8_t>(data[i])) * 0x100000001b3ULL;
    return h;
}

class PyRandom {
  public:
    static constexpr int N = 624;
    static constexpr int M = 397;

    // engine.SplitMix(start): the split stream from its 64-bit state (the Twister's table is
    // left unset: this generator never reads it).
    static PyRandom splitmix(uint64_t start) { return PyRandom(start); }

    bool split() const { return split_; }

    // A copy takes the Twister's 2.5 kB table only where it is read (not on the split stream).
    PyRandom(const PyRandom& o) : split_(o.split_), word_(o.word_), index_(o.index_) {
        if (!split_) std::memcpy(mt_, o.mt_, sizeof mt_);
    }
    PyRandom& operator=(const PyRandom& o) {
        split_ = o.split_, word_ = o.word_, index_ = o.index_;
        if (!split_ && this != &o) std::memcpy(mt_, o.mt_, sizeof mt_);
        return *this;
    }

    // SplitMix64's step, and its output for the state ``z``: the split stream's words are
    // mix(start + GAMMA), mix(start + 2 * GAMMA), ..., each independent of the others.
    static constexpr uint64_t GAMMA = 0x9e3779b97f4a7c15ULL;
    static uint64_t mix(uint64_t z) {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    // One SplitMix64 word (the split stream).
    uint64_t next64() { return mix(word_ += GAMMA); }

    // random.Random(n) for the whole number whose absolute value has these 32-bit words,
    // least significant first (CPython seeds with abs(n), as init_by_array of those words,
    // one word for zero).
    explicit PyRandom(const uint32_t* key, int words) { seed_words(key, words); }

    // random.Random(n) for an n that fits 128 bits (sign ignored, as CPython ignores it).
    static PyRandom from_int(unsigned __int128 magnitude) {
        uint32_t key[4];
        int words = 0;
        do {
            key[words++] = static_cast<uint32_t>(magnitude);
            magnitude >>= 32;
        } while (magnitude);
        return PyRandom(key, words);
    }

    uint32_t next32() {
        if (index_ >= N) refill();
        uint32_t y = mt_[index_++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680U;
        y ^= (y << 15) & 0xefc60000U;
        y ^= y >> 18;
        return y;
    }

    // getrandbits(k) for 0 <= k <= 64.
    uint64_t getrandbits(int k) {
        if (k <= 0) return 0;
        if (split_) return next64() >> (64 - k);
        if (k <= 32) return next32() >> (32 - k);
        uint64_t low = next32();  // CPython fills words least significant first
        uint64_t high = next32() >> (64 - k);
        return low | (high << 32);
    }

    // random._randbelow(n): getrandbits(n.bit_length()) until below n; n >= 1. The split
    // stream's loop here, always inlined (a random agent's draw each action: the inliner let it
    // out of a batch's loop when the loop's function grew); the Twister's out of line.
    //
    // Python rejects up to half of the words (n just above a power of two; n = 1 too), at random:
    // a loop branch no predictor learns, the commonest mispredict of a random agent's draw. So the
    // split stream tries the next two words at once (their multiplies overlap) and takes the first
    // one below n by arithmetic, not by a branch: the loop goes round again only when both are
    // rejected (a quarter of the time at worst). The same words are read in the same order, the
    // same number is returned, and the state ends just past the word taken, as one at a time.
    [[gnu::always_inline]] uint64_t randbelow(uint64_t n) {
        if (split_) {
            int shift = __builtin_clzll(n);  // getrandbits(k) of a word: its top k = 64 - shift bits
            for (uint64_t word = word_;; word += 2 * GAMMA) {
                uint64_t a = mix(word + GAMMA) >> shift, b = mix(word + 2 * GAMMA) >> shift;
                uint64_t first = 0 - static_cast<uint64_t>(a < n);  // all ones when the first is taken
                uint64_t r = (a & first) | (b & ~first);
                if (r < n) {
                    word_ = word + GAMMA + (GAMMA & ~first);
                    return r;
                }
            }
        }
        return twister_randbelow(n);
    }

    __attribute__((noinline)) uint64_t twister_randbelow(uint64_t n) {
        int k = 64 - __builtin_clzll(n);
        uint64_t r = getrandbits(k);
        while (r >= n) r = getrandbits(k);
        return r;
    }

    // random.random(): 53 random bits as a float in [0, 1).
    double random() {
        if (split_) return static_cast<double>(next64() >> 11) * (1.0 / 9007199254740992.0);
        uint32_t a = next32() >> 5, b = next32() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }

    // random.shuffle(x).
    template <class T>
    void shuffle(T* x, size_t size) {
        if (split_) {
            // randbelow(i + 1) for i from size - 1 down to 1, read one word a round of the loop
            // rather than one draw a round: a word whose top bits r are below i + 1 swaps x[i]
            // with x[r] and moves on to i - 1; a rejected one swaps x[i] with itself and stays.
            // No branch but the loop's (the rejections' branch mispredicted about a third of a
            // deal's draws), and no word's multiplies wait for the draws before it: the state, in
            // a register, steps one word a round whatever was taken.
            uint64_t word = word_;
            for (size_t i = size ? size - 1 : 0; i;) {
                uint64_t r = mix(word += GAMMA) >> __builtin_clzll(i + 1);
                size_t take = r <= i;
                size_t j = take ? static_cast<size_t>(r) : i;
                T swap = x[i];
                x[i] = x[j];
                x[j] = swap;
                i -= take;
            }
            word_ = word;
            return;
        }
        for (size_t i = size; i-- > 1;) {
            size_t j = static_cast<size_t>(randbelow(i + 1));
            T swap = x[i];
            x[i] = x[j];
            x[j] = swap;
        }
    }

    // random.sample(population, k), CPython 3.11's two ways (a pool for small populations,
    // a set of chosen places for large ones); k <= size.
    template <class T>
    std::vector<T> sample(const T* population, size_t size, size_t k) {
        std::vector<T> result(k);
        if (split_) {  // engine.SplitMix.sample: always the pool
            std::vector<T> pool(population, population + size);
            for (size_t i = 0; i < k; ++i) {
                size_t j = static_cast<size_t>(randbelow(size - i));
                result[i] = pool[j];
                pool[j] = pool[size - i - 1];
            }
            return result;
        }
        size_t setsize = 21;
        if (k > 5) setsize += static_cast<size_t>(std::pow(4.0, std::ceil(std::log(k * 3.0) / std::log(4.0))));
        if (size <= setsize) {
            std::vector<T> pool(population, population + size);
            for (size_t i = 0; i < k; ++i) {
                size_t j = static_cast<size_t>(randbelow(size - i));
                result[i] = pool[j];
                pool[j] = pool[size - i - 1];
            }
        } else {
            std::vector<bool> selected(size, false);
            for (size_t i = 0; i < k; ++i) {
                size_t j = static_cast<size_t>(randbelow(size));
                while (selected[j]) j = static_cast<size_t>(randbelow(size));
                selected[j] = true;
                result[i] = population[j];
            }
        }
        return result;
    }

    // The whole state as words (a vector environment's rows pickle with it): the stream, the
    // split stream's word, the Twister's index and, on the Twister only, its table.
    std::vector<uint64_t> dump() const {
        std::vector<uint64_t> out{split_ ? 1ULL : 0ULL, word_, static_cast<uint64_t>(index_)};
        if (!split_) out.insert(out.end(), mt_, mt_ + N);
        return out;
    }
    // The generator ``dump`` gave these words of; false (nothing changed) if they are not one.
    bool load(const std::vector<uint64_t>& words) {
        if (words.size() < 3 || words[0] > 1) return false;
        bool split = words[0] == 1;
        if (words.size() != (split ? 3U : 3U + N) || words[2] > static_cast<uint64_t>(N + 1)) return false;
        for (size_t i = 3; i < words.size(); ++i)
            if (words[i] > 0xffffffffULL) return false;
        split_ = split, word_ = words[1], index_ = static_cast<int>(words[2]);
        for (size_t i = 3; i < words.size(); ++i) mt_[i - 3] = static_cast<uint32_t>(words[i]);
        return true;
    }

  private:
    bool split_ = false;
    uint64_t word_ = 0;  // the split stream's state
    int index_ = N + 1;
    uint32_t mt_[N];

    explicit PyRandom(uint64_t start) : split_(true), word_(start) {}

    // init_by_array(key), as CPython's _random runs it. Its first step, init_genrand(19650218),
    // is the same for every key: made once and copied. Each loop carries the word just written
    // in a register (``prev``) rather than reading it back from the array.
    void seed_words(const uint32_t* key, int words) {
        struct Table {
            uint32_t mt[N];
        };
        static const Table base = [] {
            Table t;
            uint32_t prev = t.mt[0] = 19650218U;
            for (int i = 1; i < N; ++i) t.mt[i] = prev = 1812433253U * (prev ^ (prev >> 30)) + static_cast<uint32_t>(i);
            return t;
        }();
        std::memcpy(mt_, base.mt, sizeof mt_);
        int i = 1, j = 0;
        uint32_t prev = mt_[0];
        for (int k = N > words ? N : words; k; --k) {
            prev = mt_[i] = (mt_[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + key[j] + static_cast<uint32_t>(j);
            ++i;
            ++j;
            if (i >= N) {
                mt_[0] = mt_[N - 1];
                i = 1;
            }
            if (j >= words) j = 0;
        }
        for (int k = N - 1; k; --k) {
            prev = mt_[i] = (mt_[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) - static_cast<uint32_t>(i);
            ++i;
            if (i >= N) {
                mt_[0] = mt_[N - 1];
                i = 1;
            }
        }
        mt_[0] = 0x80000000U;
        index_ = N;
    }

    void refill() {
        constexpr uint32_t upper = 0x80000000U, lower = 0x7fffffffU, matrix = 0x9908b0dfU;
        int kk = 0;
        for (; kk < N - M; ++kk) {
            uint32_t y = (mt_[kk] & upper) | (mt_[kk + 1] & lower);
            mt_[kk] = mt_[kk + M] ^ (y >> 1) ^ ((y & 1U) ? matrix : 0U);
        }
        for (; kk < N - 1; ++kk) {
            uint32_t y = (mt_[kk] & upper) | (mt_[kk + 1] & lower);
            mt_[kk] = mt_[kk + (M - N)] ^ (y >> 1) ^ ((y & 1U) ? matrix : 0U);
        }
        uint32_t y = (mt_[N - 1] & upper) | (mt_[0] & lower);
        mt_[N - 1] = mt_[M - 1] ^ (y >> 1) ^ ((y & 1U) ? matrix : 0U);
        index_ = 0;
    }
};

// engine.chance_rng(seed, *keys, stream=...): the generator for one chance event, from the
// event's text key ("seed:key:...", exactly as Python writes it).
inline PyRandom chance_rng(const std::string& text, Stream stream = Stream::Twister) {
    if (stream == Stream::SplitMix) return PyRandom::splitmix(key_hash(text.data(), text.size()));
    uint8_t digest[8];
    blake2b(text.data(), text.size(), digest, 8);
    uint64_t value = 0;
    for (int i = 0; i < 8; ++i) value = (value << 8) | digest[i];  // read big-endian
    return PyRandom::from_int(value);
}

// Baha's deck order for one hand (games/baha/deal.py shuffled_deck): the 512-bit digest of
// "seed:deal:hand" read big-endian as a number, whose mixed-radix digits (radix 52, 51, ...,
// 2, least significant first) are the swaps of a Fisher-Yates shuffle. Python takes the number
// modulo 52! first; that changes none of these digits (52! is the product of the radices), so
// it is left out here. The radices are divided out in groups whose product fits 32 bits, a
// few long divisions of the 16 limbs instead of one per card.
// On the split stream: the deck 0..51 shuffled by chance_rng(text).
inline void baha_deck_order(const std::string& text, uint8_t deck[52], Stream stream = Stream::Twister) {
    if (stream == Stream::SplitMix) {
        for (int c = 0; c < 52; ++c) deck[c] = static_cast<uint8_t>(c);
        chance_rng(text, stream).shuffle(deck, 52);
        return;
    }
    uint8_t digest[64];
    blake2b(text.data(), text.size(), digest, 64);
    uint32_t limbs[16];  // most significant first
    for (int i = 0; i < 16; ++i)
        limbs[i] = (uint32_t(digest[4 * i]) << 24) | (uint32_t(digest[4 * i + 1]) << 16) |
                   (uint32_t(digest[4 * i + 2]) << 8) | uint32_t(digest[4 * i + 3]);
    for (int c = 0; c < 52; ++c) deck[c] = static_cast<uint8_t>(c);
    int top = 0;  // limbs before ``top`` are zero
    int radix = 52;
    while (radix >= 2) {
        uint64_t group = 1;
        int last = radix;
        while (last >= 2 && group * static_cast<uint64_t>(last) < (1ULL << 32)) group *= static_cast<uint64_t>(last--);
        uint64_t rem = 0;
        for (int i = top; i < 16; ++i) {
            uint64_t cur = (rem << 32) | limbs[i];
            limbs[i] = static_cast<uint32_t>(cur / group);
            rem = cur % group;
        }
        while (top < 16 && limbs[top] == 0) ++top;
        for (int r = radix; r > last; --r) {
            uint32_t j = static_cast<uint32_t>(rem % static_cast<uint64_t>(r));
            rem /= static_cast<uint64_t>(r);
            uint8_t swap = deck[r - 1];
            deck[r - 1] = deck[j];
            deck[j] = swap;
        }
        radix = last;
    }
}

// engine.seeded_rng(seed, stream): a bot's own generator, random.Random(seed) on the Twister
// stream, SplitMix at key_hash(str(seed)) on the split one.
inline PyRandom seeded_rng(__int128 seed, Stream stream) {
    unsigned __int128 magnitude = seed < 0 ? static_cast<unsigned __int128>(-seed) : static_cast<unsigned __int128>(seed);
    if (stream == Stream::SplitMix) {
        char text[48];
        int at = 48;
        while (magnitude >> 64) {  // digits of a 128-bit number (rare), till it fits 64 bits
            text[--at] = static_cast<char>('0' + static_cast<int>(magnitude % 10));
            magnitude /= 10;
        }
        uint64_t low = static_cast<uint64_t>(magnitude);  // a division by 10 is a multiply here
        do {
            text[--at] = static_cast<char>('0' + static_cast<int>(low % 10));
            low /= 10;
        } while (low);
        if (seed < 0) text[--at] = '-';
        return PyRandom::splitmix(key_hash(text + at, static_cast<size_t>(48 - at)));
    }
    return PyRandom::from_int(magnitude);
}

// The agent of seat ``seat`` in the game of seed ``seed`` (cardroom simulate: seed * 1000 + seat).
inline PyRandom agent_rng(int64_t seed, int seat, Stream stream) {
    return seeded_rng(static_cast<__int128>(seed) * 1000 + seat, stream);
}

// agent_rng(seed, seat, stream) for the seats of one game, made one after another (a batch's
// seats). On the split stream seat s hashes the text of seed * 1000 + s: for a seed above 0, the
// seed's digits then the seat's three, so the seed's part is hashed once a game, not once a seat
// (nor written out digit by digit from a 128-bit number).
class AgentRngs {
  public:
    AgentRngs(int64_t seed, Stream stream) : seed_(seed), stream_(stream), parts_(stream == Stream::SplitMix && seed > 0) {
        if (parts_) {
            char digits[24];
            char* end = std::to_chars(digits, digits + sizeof digits, seed).ptr;
            prefix_ = key_hash(digits, static_cast<size_t>(end - digits));
        }
    }
    PyRandom operator()(int seat) const {
        if (!parts_ || seat < 0 || seat > 999) return agent_rng(seed_, seat, stream_);
        const char three[3] = {static_cast<char>('0' + seat / 100), static_cast<char>('0' + seat / 10 % 10),
                               static_cast<char>('0' + seat % 10)};
        return PyRandom::splitmix(key_hash(three, 3, prefix_));
    }

  private:
    int64_t seed_;
    Stream stream_;
    bool parts_;
    uint64_t prefix_ = 0;
};

}  // namespace cardroom
