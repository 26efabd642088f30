// Baha's heuristic player in C++: the rules of thumb of agents/baha_heuristic.py, choosing
// exactly what the Python player chooses on the same position, its tie-breaks included.
//
// The Python player reads its seat's observation (hand, trick, cards played, the horns each
// seat took face up) and the legal actions; so does this one, from a Game. Where Python takes
// min/max over the legal cards in ascending order, the first best card wins here too. The only
// random draw is the lead's tie-break, one random() per legal card in ascending order (the
// key function's calls), and none when a single action is legal. The differential test
// (tests/native/test_heuristic.py) holds the two to it on positions from many games.
#pragma once

#include <cstdint>

#include "baha.hpp"
#include "chance.hpp"

namespace cardroom {
namespace baha {

constexpr int MOON_SIGNAL = 16;  // baha_heuristic.MOON_SIGNAL

inline int value_of(int card) { return card % VALUES + 1; }

// The points each seat took face up this hand (views.horns_shown).
inline void horns_shown(const Game& g, int* out) {
    for (int s = 0; s < g.n; ++s) out[s] = g.rules.points(g.taken[s] & ~g.face_down[s]);
}

// _moon_threat: the seat that took every horn shown, if it took many; -1 for none.
inline int moon_threat(const int* horns, int n) {
    int taker = -1;
    for (int s = 0; s < n; ++s) {
        if (!horns[s]) continue;
        if (taker >= 0) return -1;
        taker = s;
    }
    return taker >= 0 && horns[taker] >= MOON_SIGNAL ? taker : -1;
}

// Iterates the cards of a mask in ascending order, as Python's lists of legal actions run.
#define CARDROOM_EACH(card, mask) \
    for (uint64_t each_ = (mask); each_ && ((card) = lowest(each_), true); each_ &= each_ - 1)

struct Heuristic {
    PyRandom rng;  // random.Random(seed): what BahaHeuristic(seed).rng draws

    // The action for the seat to act (g.turn), as BahaHeuristic.act chooses it.
    int act(const Game& g) {
        uint64_t legal = g.legal_mask();
        if (g.phase == PASS) {
            int card = count(legal) == 1 ? lowest(legal) : pass_card(g, legal);
            return card + PASS_BASE;
        }
        if (count(legal) == 1) return lowest(legal);
        return play_card(g, legal);
    }

    int pass_card(const Game& g, uint64_t choices) const {
        const Rules& rules = g.rules;
        uint64_t hand = g.hands[g.turn];
        int card;
        if (rules.moon && moon_hand(hand)) {
            // min by (value, colour): the lowest value, then the lowest colour
            int best = -1;
            CARDROOM_EACH(card, choices) {
                if (best < 0 || value_of(card) < value_of(best) ||
                    (value_of(card) == value_of(best) && colour_of(card) < colour_of(best)))
                    best = card;
            }
            return best;
        }
        int counts[4];
        for (int k = 0; k < 4; ++k) counts[k] = count(hand & colour_mask(k));
        // max by (danger, card): the card breaks ties, so the last best in ascending order
        int best = -1, best_danger = 0;
        CARDROOM_EACH(card, choices) {
            int danger = value_of(card) + 4 * rules.card_points(value_of(card));
            if (counts[colour_of(card)] <= 3) danger += 6;  // helps make a void
            if (best < 0 || danger >= best_danger) {
                best = card;
                best_danger = danger;
            }
        }
        return best;
    }

    static bool moon_hand(uint64_t hand) {
        uint64_t high = value_mask(11) | value_mask(12) | value_mask(13);
        return count(hand & high) >= 8 && count(hand) >= 12;
    }

    int play_card(const Game& g, uint64_t legal) {
        const Rules& rules = g.rules;
        int seat = g.turn;
        int horns[MAX_PLAYERS];
        horns_shown(g, horns);
        int shooter = moon_threat(horns, g.n);
        bool mooning = shooter == seat && rules.moon;
        if (!g.trick_len) return lead(g, legal, mooning);
        int led = colour_of(g.trick[0]);
        int top = -1, winner_seat = -1, trick_horns = 0;
        for (int i = 0; i < g.trick_len; ++i) {
            int card = g.trick[i];
            trick_horns += rules.card_points(value_of(card));
            if (colour_of(card) == led && card > top) {
                top = card;
                winner_seat = (g.leader + i) % g.n;
            }
        }
        bool last = g.trick_len == rules.players - 1;
        uint64_t following = legal & colour_mask(led);
        int card;
        if (following) {
            uint64_t below = (1ULL << top) - 1;
            uint64_t under = following & below;
            uint64_t over = following & ~below & ~(1ULL << top);
            if (mooning && over) return highest(over);
            if (shooter >= 0 && shooter != seat && winner_seat == shooter && over && (trick_horns || last))
                return lowest(over);  // stop the moon: take this one
            if (under) return highest(under);
            if (last) return highest(following);  // the trick is ours anyway
            return lowest(following);
        }
        // void in the led colour
        if (mooning) {
            // min by (points, value): the first best in ascending order
            int best = -1;
            CARDROOM_EACH(card, legal) {
                if (best < 0 || less(rules, card, best)) best = card;
            }
            return best;
        }
        if (shooter >= 0 && shooter != seat && winner_seat == shooter) {
            uint64_t safe = legal & ~rules.point_mask;
            if (safe) return first_highest_value(safe);
        }
        int best = -1;  // max by (points, value): the first best in ascending order
        CARDROOM_EACH(card, legal) {
            if (best < 0 || less(rules, best, card)) best = card;
        }
        return best;
    }

    int lead(const Game& g, uint64_t legal, bool mooning) {
        if (mooning) return first_highest_value(legal);
        uint64_t known = g.played | g.hands[g.turn];
        // min by (-higher_out, value, random()): every card draws, in ascending order
        int best = -1, best_out = 0;
        double best_draw = 0;
        int card;
        CARDROOM_EACH(card, legal) {
            uint64_t higher = ((1ULL << (colour_of(card) * VALUES + VALUES)) - 1) & ~((1ULL << (card + 1)) - 1);
            int out = count(higher & ~known);  // cards above it the others may still hold
            double draw = rng.random();
            if (best < 0 || out > best_out ||
                (out == best_out && (value_of(card) < value_of(best) ||
                                     (value_of(card) == value_of(best) && draw < best_draw)))) {
                best = card;
                best_out = out;
                best_draw = draw;
            }
        }
        return best;
    }

    static int highest(uint64_t mask) { return 63 - __builtin_clzll(mask); }

    // (points, value) of a below (points, value) of b
    static bool less(const Rules& rules, int a, int b) {
        int pa = rules.card_points(value_of(a)), pb = rules.card_points(value_of(b));
        return pa < pb || (pa == pb && value_of(a) < value_of(b));
    }

    // max by value: the first card of the highest value in ascending order (lowest colour)
    static int first_highest_value(uint64_t mask) {
        int best = -1, card;
        CARDROOM_EACH(card, mask) {
            if (best < 0 || value_of(card) > value_of(best)) best = card;
        }
        return best;
    }
};

#undef CARDROOM_EACH

}  // namespace baha
}  // namespace cardroom
