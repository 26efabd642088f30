// Baha's determinization in C++: what one seat knows of the hidden cards, and worlds dealt
// again consistently with it (games/baha/determinize.py, the reference, rule for rule).
//
// The knowledge is built from the seat's view of the current hand's events, told one by one
// to a KnowledgeBuilder (each call carries only what the seat saw: a play, a trick's winner
// and how many leftover cards went face down, a draw, a take, a pass pick, the pass's cards
// when the seat gave them). Each other hand is a list of slots, each with the colours it cannot
// be; a card played from an unknown slot is taken from the most constrained slot that allows
// it, as in Python, so the slots (as a multiset) and so the worlds that can be dealt are the
// reference's. The fill deals the constrained slots first (one sample per kind of slot,
// retried, then a bipartite matching), then shuffles the rest into the free places: the same
// steps as determinize._fill, on this engine's own random stream.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "baha.hpp"
#include "rng.hpp"

namespace cardroom {
namespace baha {

struct Knowledge {
    int seat = 0;
    int n = 4;
    uint8_t unknown[DECK] = {0};  // the cards whose place the seat does not know, ascending
    int unknown_len = 0;
    uint64_t known_in_hand[MAX_PLAYERS] = {0};  // cards the seat gave, still in the receiver's hand
    uint8_t slots[MAX_PLAYERS][DECK] = {{0}};   // per seat: the forbidden colours (bits) of each slot
    int slot_len[MAX_PLAYERS] = {0};
    int leftover = 0;
    int draw_pile = 0;
    int face_down[MAX_PLAYERS] = {0};  // hidden face-down cards per other seat
    int picks_made[MAX_PLAYERS] = {0};
};

// determinize.knowledge, fed the seat's view of the hand's events in order.
class KnowledgeBuilder {
  public:
    KnowledgeBuilder(int seat, int n) {
        k_.seat = seat;
        k_.n = n;
    }

    void hand(const int* sizes, int leftover, int draw_pile) {
        int seat = k_.seat, n = k_.n;
        k_ = Knowledge();
        k_.seat = seat;
        k_.n = n;
        for (int s = 0; s < n; ++s) k_.slot_len[s] = s == seat ? 0 : sizes[s];  // all free: zero-filled
        k_.leftover = leftover;
        k_.draw_pile = draw_pile;
        led_ = -1;
    }

    void pass_pick(int p) { ++k_.picks_made[p]; }

    // The pass from one seat to another; ``cards`` only when the seat gave them (else ignored).
    void pass(int from, int to, uint64_t cards, int count_given) {
        for (int s = 0; s < k_.n; ++s) k_.picks_made[s] = 0;
        if (from != k_.seat || to == k_.seat) return;
        k_.known_in_hand[to] |= cards;
        remove_front(to, count_given);  // no voids yet: the slots are alike
    }

    void play(int p, int card) {
        int colour = colour_of(card);
        if (led_ < 0) led_ = colour;
        if (p == k_.seat) return;
        uint64_t bit = 1ULL << card;
        if (k_.known_in_hand[p] & bit)
            k_.known_in_hand[p] &= ~bit;
        else if (!take_slot(p, colour))
            throw_inconsistent();
        if (colour != led_)
            for (int i = 0; i < k_.slot_len[p]; ++i) k_.slots[p][i] |= static_cast<uint8_t>(1 << led_);
    }

    void trick(int winner, int leftover_count) {
        led_ = -1;
        if (leftover_count && winner != k_.seat) k_.face_down[winner] += leftover_count;
        k_.leftover = 0;
    }

    void draw(int p) {
        --k_.draw_pile;
        if (p != k_.seat) k_.slots[p][k_.slot_len[p]++] = 0;
    }

    void take(int p, int count_taken) {
        k_.draw_pile -= count_taken;
        if (p != k_.seat) k_.face_down[p] += count_taken;
    }

    // The knowledge, given the seat's own cards (hand and face-down) and every card played.
    // Throws std::logic_error when the places and the hidden cards do not add up.
    Knowledge finish(uint64_t own, uint64_t played) {
        uint64_t seen = own | played;
        for (int s = 0; s < k_.n; ++s) seen |= k_.known_in_hand[s];
        uint64_t unknown = ((1ULL << DECK) - 1) & ~seen;
        k_.unknown_len = 0;
        for (; unknown; unknown &= unknown - 1) k_.unknown[k_.unknown_len++] = static_cast<uint8_t>(lowest(unknown));
        int places = k_.leftover + k_.draw_pile;
        for (int s = 0; s < k_.n; ++s) places += k_.slot_len[s] + k_.face_down[s];
        if (places != k_.unknown_len) throw_inconsistent();
        return k_;
    }

  private:
    Knowledge k_;
    int led_ = -1;

    [[noreturn]] static void throw_inconsistent() {
        throw std::logic_error("the seat's view of the hand does not add up to its hidden cards");
    }

    void remove_front(int p, int count_removed) {
        int len = k_.slot_len[p];
        if (count_removed > len) count_removed = len;
        for (int i = count_removed; i < len; ++i) k_.slots[p][i - count_removed] = k_.slots[p][i];
        k_.slot_len[p] = len - count_removed;
    }

    // determinize._take_slot: the most constrained slot that may hold ``colour`` (the first of
    // the most constrained), removed keeping the order of the rest.
    bool take_slot(int p, int colour) {
        int best = -1;
        uint8_t* slots = k_.slots[p];
        for (int i = 0; i < k_.slot_len[p]; ++i) {
            if (!(slots[i] >> colour & 1) && (best < 0 || count(slots[i]) > count(slots[best]))) best = i;
        }
        if (best < 0) return false;
        for (int i = best + 1; i < k_.slot_len[p]; ++i) slots[i - 1] = slots[i];
        --k_.slot_len[p];
        return true;
    }
};

// One filled world: the hidden cards of each place.
struct Filled {
    uint64_t hand[MAX_PLAYERS];
    uint64_t face_down[MAX_PLAYERS];
    uint64_t leftover;
    uint8_t pile[DECK];
    int pile_len;
};

namespace detail {

constexpr int RETRIES = 64;  // determinize._RETRIES

struct Slot {
    int seat;
    uint8_t forbidden;
};

inline bool allowed(uint8_t forbidden, int card) { return !(forbidden >> colour_of(card) & 1); }

// determinize._try_constrained: the slots of one kind (the same forbidden colours) take a
// sample of the cards still left that they allow, the most constrained kind first.
inline bool try_constrained(const Slot* slots, int size, const Knowledge& k, Rng& rng, uint64_t& chosen, int* card_of) {
    chosen = 0;
    int start = 0;
    while (start < size) {
        int end = start;
        while (end < size && slots[end].forbidden == slots[start].forbidden) ++end;
        uint8_t eligible[DECK];
        int eligible_len = 0;
        for (int i = 0; i < k.unknown_len; ++i) {
            int card = k.unknown[i];
            if (!(chosen >> card & 1) && allowed(slots[start].forbidden, card)) eligible[eligible_len++] = static_cast<uint8_t>(card);
        }
        int wanted = end - start;
        if (eligible_len < wanted) return false;
        for (int j = 0; j < wanted; ++j) {  // a partial Fisher-Yates: a uniform sample
            int pick = j + static_cast<int>(rng.below(static_cast<uint64_t>(eligible_len - j)));
            uint8_t swap = eligible[j];
            eligible[j] = eligible[pick];
            eligible[pick] = swap;
            card_of[start + j] = eligible[j];
            chosen |= 1ULL << eligible[j];
        }
        start = end;
    }
    return true;
}

// determinize._match_constrained: augmenting paths over the cards in a random order.
inline bool augment(const Slot* slots, int slot, const uint8_t* cards, int cards_len, int* owner, uint64_t& visited) {
    for (int i = 0; i < cards_len; ++i) {
        int card = cards[i];
        if (!allowed(slots[slot].forbidden, card) || (visited >> card & 1)) continue;
        visited |= 1ULL << card;
        if (owner[card] < 0 || augment(slots, owner[card], cards, cards_len, owner, visited)) {
            owner[card] = slot;
            return true;
        }
    }
    return false;
}

inline void match_constrained(const Slot* slots, int size, const Knowledge& k, Rng& rng, uint64_t& chosen, int* card_of) {
    uint8_t cards[DECK];
    for (int i = 0; i < k.unknown_len; ++i) cards[i] = k.unknown[i];
    rng.shuffle(cards, k.unknown_len);
    int owner[DECK];
    for (int& o : owner) o = -1;
    for (int s = 0; s < size; ++s) {
        uint64_t visited = 0;
        if (!augment(slots, s, cards, k.unknown_len, owner, visited))
            throw std::logic_error("the hidden cards admit no deal consistent with the voids");
    }
    chosen = 0;
    for (int card = 0; card < DECK; ++card) {
        if (owner[card] >= 0) {
            card_of[owner[card]] = card;
            chosen |= 1ULL << card;
        }
    }
}

}  // namespace detail

// determinize._fill: every hidden place given a card.
inline void fill(const Knowledge& k, Rng& rng, Filled& out) {
    detail::Slot slots[DECK];
    int size = 0;
    for (int p = 0; p < k.n; ++p)
        for (int i = 0; i < k.slot_len[p]; ++i)
            if (k.slots[p][i]) slots[size++] = detail::Slot{p, k.slots[p][i]};
    // the most constrained first; a stable insertion sort keeps the kinds together as Python's
    // sort and grouping do (equal forbidden sets are equal keys)
    for (int i = 1; i < size; ++i) {
        detail::Slot s = slots[i];
        int j = i;
        while (j > 0 && (count(slots[j - 1].forbidden) < count(s.forbidden) ||
                         (count(slots[j - 1].forbidden) == count(s.forbidden) && slots[j - 1].forbidden < s.forbidden))) {
            slots[j] = slots[j - 1];
            --j;
        }
        slots[j] = s;
    }
    int card_of[DECK];
    uint64_t chosen = 0;
    bool placed = false;
    for (int attempt = 0; attempt < detail::RETRIES && !placed; ++attempt)
        placed = detail::try_constrained(slots, size, k, rng, chosen, card_of);
    if (!placed) detail::match_constrained(slots, size, k, rng, chosen, card_of);
    for (int p = 0; p < k.n; ++p) out.hand[p] = out.face_down[p] = 0;
    for (int s = 0; s < size; ++s) out.hand[slots[s].seat] |= 1ULL << card_of[s];
    uint8_t rest[DECK];
    int rest_len = 0;
    for (int i = 0; i < k.unknown_len; ++i)
        if (!(chosen >> k.unknown[i] & 1)) rest[rest_len++] = k.unknown[i];
    rng.shuffle(rest, rest_len);
    int i = 0;
    for (int p = 0; p < k.n; ++p) {
        for (int j = 0; j < k.slot_len[p]; ++j)
            if (!k.slots[p][j]) out.hand[p] |= 1ULL << rest[i++];
    }
    for (int p = 0; p < k.n; ++p)
        for (int j = 0; j < k.face_down[p]; ++j) out.face_down[p] |= 1ULL << rest[i++];
    out.leftover = 0;
    for (int j = 0; j < k.leftover; ++j) out.leftover |= 1ULL << rest[i++];
    out.pile_len = k.draw_pile;
    for (int j = 0; j < k.draw_pile; ++j) out.pile[j] = rest[i++];
}

// determinize.determinize: ``world`` becomes ``state`` with the hidden cards dealt again
// (``world`` may be a copy of ``state`` made earlier: every field is set from ``state``).
// The world's seed (its next deals) is left to the caller.
inline void determinize(const Game& state, const Knowledge& k, Rng& rng, Game& world) {
    Filled filled;
    fill(k, rng, filled);
    std::string seed = std::move(world.seed);
    world = state;
    world.seed = std::move(seed);
    int n = state.n, seat = k.seat;
    for (int p = 0; p < n; ++p) {
        if (p == seat) continue;
        world.hands[p] = k.known_in_hand[p] | filled.hand[p];
        world.taken[p] = (state.taken[p] & ~state.face_down[p]) | filled.face_down[p];
        world.face_down[p] = filled.face_down[p];
        world.picks[p] = 0;
        int to = ((p + state.pass_offset) % n + n) % n, from = ((p - state.pass_offset) % n + n) % n;
        if (state.passed[p] && seat != p && seat != to) world.passed[p] = 0;  // not re-imagined
        if (state.received[p] && seat != p && seat != from) world.received[p] = 0;
    }
    world.leftover = filled.leftover;
    world.pile_head = 0;
    world.pile_len = filled.pile_len;
    for (int j = 0; j < filled.pile_len; ++j) world.pile[j] = filled.pile[j];
    if (state.phase == PASS) {
        for (int p = 0; p < n; ++p) {
            if (p == seat || !k.picks_made[p]) continue;
            uint8_t cards[DECK];
            int len = 0;
            for (uint64_t h = world.hands[p]; h; h &= h - 1) cards[len++] = static_cast<uint8_t>(lowest(h));
            for (int j = 0; j < k.picks_made[p]; ++j) {
                int pick = j + static_cast<int>(rng.below(static_cast<uint64_t>(len - j)));
                uint8_t swap = cards[j];
                cards[j] = cards[pick];
                cards[pick] = swap;
                world.picks[p] |= 1ULL << cards[j];
            }
        }
    }
}

}  // namespace baha
}  // namespace cardroom
