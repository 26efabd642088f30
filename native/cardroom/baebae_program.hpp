// BAEBAE's compiled deck (games/baebae/program.py) and the card sets the rules are played with.
//
// A physical card is an int; a set of cards (a hand, the cards a step may select) is a Bits of
// as many 64-bit words as the deck needs (a deck may hold thousands of cards). The program is
// the deck's actions as flat step records, read by the interpreter in baebae.hpp.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cardroom/bits.hpp"

namespace cardroom {
namespace baebae {

// The ops, in the order of program.OPS (checked at load: program.unsupported).
enum Op {
    DRAW, DISCARD, DISCARD_UNDER, GIVE, TAKE, SWAP_HANDS, SKIP, REVERSE, DECLARE_SUIT, PLAY_AGAIN, PEEK,
    PENALTY, COIN, CHOOSE, ASK_OPTIONAL, END_TURN, OP_COUNT
};
inline const char* const OP_NAMES[OP_COUNT] = {
    "draw", "discard", "discard_under", "give", "take", "swap_hands", "skip", "reverse", "declare_suit",
    "play_again", "peek", "penalty", "coin", "choose", "_optional", "_end_turn",
};
// Target kinds, in the order of program.TARGET_KINDS.
enum Target { T_SELF, T_NEXT, T_PREVIOUS, T_CHOSEN, T_OTHERS, T_ALL, T_HOLDING };

struct Step {
    int op, who, who_filter, to, count, filter, points, heads, tails, first_option, options, mark_declare;
};
constexpr int STEP_WIDTH = 12;
struct List {
    int first, size;
};
struct Option {
    int label, list;
};
struct Design {
    int rank, suit;
    bool wild, declares, optional, can_win, on_start, has_marks;
    int effects, marks, penalty;
    bool reverse, skip;  // the marks the heuristic reads
};
constexpr int DESIGN_WIDTH = 13;

// A Bits' words: up to INLINE of them held in place (decks of up to 256 cards: a hand, a mask
// made each action, costs no allocation), more on the heap. As much of std::vector's face as
// the sets use (size, [], iteration, ==, assign, resize, data).
class Words {
  public:
    static constexpr size_t INLINE = 4;
    Words() = default;
    Words(size_t count, uint64_t value) { assign(count, value); }
    // ptr_ points at the words wherever they are held (no branch a read): the copies and moves
    // point it at their own.
    Words(const Words& o) { copy_from(o); }
    Words(Words&& o) noexcept { take_from(o); }
    Words& operator=(const Words& o) {
        if (this != &o) copy_from(o);
        return *this;
    }
    Words& operator=(Words&& o) noexcept {
        if (this != &o) take_from(o);
        return *this;
    }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    uint64_t* data() { return ptr_; }
    const uint64_t* data() const { return ptr_; }
    uint64_t& operator[](size_t i) { return ptr_[i]; }
    const uint64_t& operator[](size_t i) const { return ptr_[i]; }
    uint64_t* begin() { return ptr_; }
    uint64_t* end() { return ptr_ + size_; }
    const uint64_t* begin() const { return ptr_; }
    const uint64_t* end() const { return ptr_ + size_; }
    void assign(size_t count, uint64_t value) {
        size_ = count;
        if (count > INLINE) {
            heap_.assign(count, value);
            ptr_ = heap_.data();
        } else {
            heap_.clear();
            ptr_ = local_;
            for (size_t i = 0; i < count; ++i) local_[i] = value;
        }
    }
    void resize(size_t count, uint64_t value = 0) {
        if (count == size_) return;
        std::vector<uint64_t> kept(begin(), end());
        kept.resize(count, value);
        assign(count, 0);
        for (size_t i = 0; i < count; ++i) (*this)[i] = kept[i];
    }
    bool operator==(const Words& o) const {
        if (size_ != o.size_) return false;
        for (size_t i = 0; i < size_; ++i)
            if (ptr_[i] != o.ptr_[i]) return false;
        return true;
    }
    bool operator!=(const Words& o) const { return !(*this == o); }

  private:
    size_t size_ = 0;
    uint64_t local_[INLINE] = {0, 0, 0, 0};
    uint64_t* ptr_ = local_;
    std::vector<uint64_t> heap_;  // empty unless size_ > INLINE

    void copy_from(const Words& o) {
        size_ = o.size_;
        for (size_t i = 0; i < INLINE; ++i) local_[i] = o.local_[i];
        if (size_ > INLINE) {
            heap_ = o.heap_;
            ptr_ = heap_.data();
        } else {
            heap_.clear();
            ptr_ = local_;
        }
    }
    void take_from(Words& o) {
        size_ = o.size_;
        for (size_t i = 0; i < INLINE; ++i) local_[i] = o.local_[i];
        if (size_ > INLINE) {
            heap_ = std::move(o.heap_);
            ptr_ = heap_.data();
            o.heap_.clear();
            o.size_ = 0;  // the words went with the heap
            o.ptr_ = o.local_;
        } else {
            heap_.clear();
            ptr_ = local_;
        }
    }
};

// A set of physical cards.
struct Bits {
    Words w;
    Bits() = default;
    explicit Bits(int words) : w(static_cast<size_t>(words), 0) {}
    bool has(int c) const { return (w[c >> 6] >> (c & 63)) & 1; }
    void set(int c) { w[c >> 6] |= 1ULL << (c & 63); }
    void clear(int c) { w[c >> 6] &= ~(1ULL << (c & 63)); }
    bool any() const {
        for (uint64_t x : w)
            if (x) return true;
        return false;
    }
    bool at_most_one() const {  // count() <= 1
        int seen = 0;
        for (uint64_t x : w) {
            if (x & (x - 1)) return false;
            seen += x != 0;
        }
        return seen <= 1;
    }
    int count() const {
        int k = 0;
        for (uint64_t x : w) k += popcount64(x);
        return k;
    }
    int lowest() const {
        for (size_t i = 0; i < w.size(); ++i)
            if (w[i]) return static_cast<int>(i * 64) + __builtin_ctzll(w[i]);
        return -1;
    }
    template <class F>
    void each(F&& f) const {  // ascending
        for (size_t i = 0; i < w.size(); ++i)
            for (uint64_t x = w[i]; x; x &= x - 1) f(static_cast<int>(i * 64) + __builtin_ctzll(x));
    }
    std::vector<int> list() const {
        std::vector<int> out;
        each([&](int c) { out.push_back(c); });
        return out;
    }
    bool operator==(const Bits& o) const { return w == o.w; }
};

struct Program {
    std::vector<Step> steps;
    std::vector<List> lists;
    std::vector<Option> options;
    std::vector<std::string> labels;
    std::vector<std::vector<uint8_t>> filters;  // per filter, per design
    std::vector<Design> designs;
    std::vector<int> card_of;    // the design of each physical card
    std::vector<int> first_pid;  // the first physical card of each design (its copies follow)
    std::vector<int> copies;
    std::vector<int> identity;   // 0, 1, ..., cards() - 1: a round's deck before its shuffle
    int ask_optional = -1, end_turn = -1;
    int words = 1;
    bool single_copies = true;  // one card of each design
    // Masks of physical cards, built once: "what may be played" is bit arithmetic.
    Bits suit_mask[4], rank_mask[14], wild_mask, no_win_mask;
    // The same masks' first words held in place, and each card's rank: what a random agent's
    // pick on a deck of one word reads every action, without a pointer to follow a mask (nor the
    // top card's design for its rank).
    struct FirstWords {
        uint64_t suit[4], rank[14], wild, no_win;
    } first_words{};
    std::vector<uint8_t> rank_of;
    std::vector<Bits> filter_mask;  // per filter: the physical cards of the designs it lets through

    int cards() const { return static_cast<int>(card_of.size()); }
    const Design& design_of(int pid) const { return designs[card_of[pid]]; }
    const Step& step(int list, int index) const { return steps[lists[list].first + index]; }

    // Every table from program.py's flat ints; a malformed program is refused, never run.
    void load(const std::vector<int>& flat_steps, const std::vector<int>& flat_lists,
              const std::vector<int>& flat_options, const std::vector<std::string>& label_texts,
              const std::vector<int>& flat_filters, const std::vector<int>& flat_designs,
              const std::vector<int>& cards_of, int ask, int end) {
        if (flat_steps.size() % STEP_WIDTH || flat_lists.size() % 2 || flat_options.size() % 2 ||
            flat_designs.size() % DESIGN_WIDTH)
            throw std::invalid_argument("a BAEBAE program of the wrong shape");
        int ndesigns = static_cast<int>(flat_designs.size() / DESIGN_WIDTH);
        steps.clear();
        for (size_t i = 0; i < flat_steps.size(); i += STEP_WIDTH) {
            const int* s = &flat_steps[i];
            if (s[0] < 0 || s[0] >= OP_COUNT) throw std::invalid_argument("a BAEBAE step of an unknown op");
            steps.push_back(Step{s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11]});
        }
        lists.clear();
        for (size_t i = 0; i < flat_lists.size(); i += 2) {
            if (flat_lists[i] < 0 || flat_lists[i] + flat_lists[i + 1] > static_cast<int>(steps.size()))
                throw std::invalid_argument("a BAEBAE list out of its program");
            lists.push_back(List{flat_lists[i], flat_lists[i + 1]});
        }
        options.clear();
        for (size_t i = 0; i < flat_options.size(); i += 2) options.push_back(Option{flat_options[i], flat_options[i + 1]});
        labels = label_texts;
        filters.clear();
        if (ndesigns && flat_filters.size() % ndesigns) throw std::invalid_argument("BAEBAE filters of the wrong shape");
        for (size_t i = 0; ndesigns && i < flat_filters.size(); i += ndesigns)
            filters.emplace_back(flat_filters.begin() + i, flat_filters.begin() + i + ndesigns);
        designs.clear();
        for (size_t i = 0; i < flat_designs.size(); i += DESIGN_WIDTH) {
            const int* d = &flat_designs[i];
            designs.push_back(Design{d[0], d[1], d[2] != 0, d[3] != 0, d[4] != 0, d[5] != 0, d[6] != 0, d[7] != 0,
                                     d[8], d[9], d[10], d[11] != 0, d[12] != 0});
        }
        card_of = cards_of;
        identity.resize(card_of.size());
        for (size_t pid = 0; pid < identity.size(); ++pid) identity[pid] = static_cast<int>(pid);
        ask_optional = ask;
        end_turn = end;
        int n = cards();
        words = (n + 63) / 64;
        if (words == 0) words = 1;
        first_pid.assign(designs.size(), -1);
        copies.assign(designs.size(), 0);
        for (auto& m : suit_mask) m = Bits(words);
        for (auto& m : rank_mask) m = Bits(words);
        wild_mask = Bits(words);
        no_win_mask = Bits(words);
        for (int pid = 0; pid < n; ++pid) {
            int d = card_of[pid];
            if (d < 0 || d >= ndesigns || (pid && card_of[pid - 1] > d))
                throw std::invalid_argument("BAEBAE cards out of design order");
            if (first_pid[d] < 0) first_pid[d] = pid;
            ++copies[d];
            const Design& c = designs[d];
            suit_mask[c.suit].set(pid);
            rank_mask[c.rank].set(pid);
            if (c.wild || c.declares) wild_mask.set(pid);
            if (!c.can_win && !c.optional) no_win_mask.set(pid);
        }
        single_copies = true;
        for (int c : copies) single_copies = single_copies && c == 1;
        for (int s = 0; s < 4; ++s) first_words.suit[s] = suit_mask[s].w[0];
        for (int r = 0; r < 14; ++r) first_words.rank[r] = rank_mask[r].w[0];
        first_words.wild = wild_mask.w[0], first_words.no_win = no_win_mask.w[0];
        rank_of.resize(card_of.size());
        for (int pid = 0; pid < n; ++pid) rank_of[pid] = static_cast<uint8_t>(designs[card_of[pid]].rank);
        filter_mask.assign(filters.size(), Bits(words));
        for (size_t f = 0; f < filters.size(); ++f)
            for (int pid = 0; pid < n; ++pid)
                if (filters[f][card_of[pid]]) filter_mask[f].set(pid);
    }

    // The designs of the cards in ``mask``, ascending, each once (copies of a design are
    // consecutive cards, so equal designs come out together).
    std::vector<int> designs_in(const Bits& mask) const {
        std::vector<int> out;
        designs_into(mask, out);
        return out;
    }
    // designs_in's designs appended to ``out`` (its earlier items left before them).
    void designs_into(const Bits& mask, std::vector<int>& out) const {
        size_t start = out.size();
        mask.each([&](int pid) {
            int d = card_of[pid];
            if (out.size() == start || out.back() != d) out.push_back(d);
        });
    }
    int count_designs(const Bits& mask) const { return count_designs(mask.w.data(), static_cast<int>(mask.w.size())); }
    // The designs of the cards in the ``size`` words at ``w``: with one copy of each design, the
    // cards; else each run of a design's cards counted once.
    int count_designs(const uint64_t* w, int size) const {
        int k = 0;
        if (single_copies) {
            for (int i = 0; i < size; ++i) k += popcount64(w[i]);
            return k;
        }
        int last = -1;
        for (int i = 0; i < size; ++i)
            for (uint64_t x = w[i]; x; x &= x - 1) {
                int d = card_of[i * 64 + __builtin_ctzll(x)];
                if (d != last) ++k, last = d;
            }
        return k;
    }
    // designs_in(mask)[k], without the list (-1 past its end).
    int nth_design(const Bits& mask, int k) const { return nth_design(mask.w.data(), static_cast<int>(mask.w.size()), k); }
    int nth_design(const uint64_t* w, int size, int k) const {
        int last = -1;
        for (int i = 0; i < size; ++i) {
            uint64_t x = w[i];
            if (single_copies) {  // the k-th card: skip whole words, then the k lowest bits
                int here = popcount64(x);
                if (k >= here) {
                    k -= here;
                    continue;
                }
                return card_of[i * 64 + nth_bit(x, k)];
            }
            for (; x; x &= x - 1) {
                int d = card_of[i * 64 + __builtin_ctzll(x)];
                if (d == last) continue;
                if (k-- == 0) return d;
                last = d;
            }
        }
        return -1;
    }
    // The lowest card of ``design`` in ``mask``, or -1.
    int lowest_of_design(const Bits& mask, int design) const {
        int first = first_pid[design];
        for (int pid = first; first >= 0 && pid < first + copies[design]; ++pid)
            if (mask.has(pid)) return pid;
        return -1;
    }
};

}  // namespace baebae
}  // namespace cardroom
