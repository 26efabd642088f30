// Baha's rules in C++: the same state machine as games/baha/state.py, on the same bitmasks.
//
// Cards are ints 0..51 (colour * 13 + value - 1), hands and taken cards 64-bit masks, actions
// the Python engine's 104 (a card plays it, 52 + card picks it for the pass). Every transition
// tells a Sink what happened (a hand dealt, a pick, the pass, a play, a trick, a draw, a take,
// a score, the end): the Python face's sink writes the events the Python engine writes, a
// batch's sink writes nothing and costs nothing. The Python engine stays the reference: the
// differential tests (tests/native/) play both side by side on every option.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "options.hpp"
#include "bits.hpp"
#include "chance.hpp"
#include "generated/baha_fields.hpp"

namespace cardroom {
namespace baha {

constexpr int DECK = 52;
constexpr int VALUES = 13;
constexpr int MAX_PLAYERS = 6;
constexpr int PASS_BASE = DECK;
constexpr int NUM_ACTIONS = 2 * DECK;
constexpr int PASS_COUNT = 3;
constexpr int DRAW_PILE_HAND = 13;
constexpr uint64_t SLICE = (1ULL << VALUES) - 1;

enum Phase : int8_t { PASS = 0, PLAY = 1, OVER = 2 };

inline int colour_of(int card) { return card / VALUES; }
inline uint64_t colour_mask(int colour) { return SLICE << (VALUES * colour); }
inline int lowest(uint64_t mask) { return __builtin_ctzll(mask); }
inline int count(uint64_t mask) { return popcount64(mask); }

// The mask of every card of one value (1..13) in all four colours.
inline uint64_t value_mask(int value) {
    uint64_t m = 0;
    for (int c = 0; c < 4; ++c) m |= 1ULL << (c * VALUES + value - 1);
    return m;
}

// How taken cards score (the option scoring): horns (9 to 13 carry 1 to 5) or face value.
enum class Scoring : uint8_t { Horns = 0, Face = 1 };
constexpr std::array<const char*, 2> choices(Scoring) { return {"horns", "face"}; }

// The options of games/baha/rules.py that the core reads, each by its name there (options.hpp):
// (type, name, default). draw_pile is the resolved one (on by default for two players, B10).
#define CARDROOM_BAHA_OPTIONS(X)        \
    X(int, players, 4)                  \
    X(Scoring, scoring, Scoring::Horns) \
    X(bool, passing, true)              \
    X(bool, moon, true)                 \
    X(int64_t, target, 100)             \
    X(bool, draw_pile, false)           \
    X(bool, random_dealer, false)       \
    X(Stream, stream, Stream::Twister)

// The options, with the tables they imply.
struct Rules {
    CARDROOM_BAHA_OPTIONS(CARDROOM_OPTION_MEMBER)
    int hand_size = 13;
    int leftover_count = 0;
    int pile_count = 0;
    uint64_t point_mask = 0;
    int points_per_hand = 0;

    void derive() {
        hand_size = draw_pile ? DRAW_PILE_HAND : DECK / players;
        leftover_count = draw_pile ? 0 : DECK - hand_size * players;
        pile_count = draw_pile ? DECK - hand_size * players : 0;
        point_mask = 0;
        for (int v = 9; v <= 13; ++v) point_mask |= value_mask(v);
        points_per_hand = 0;
        for (int v = 9; v <= 13; ++v) points_per_hand += 4 * card_points(v);
    }

    int card_points(int value) const { return value < 9 ? 0 : (scoring == Scoring::Face ? value : value - 8); }

    // Points in a set of taken cards (Rules.hand_points).
    int points(uint64_t taken) const {
        int total = 0;
        for (int v = 9; v <= 13; ++v) total += card_points(v) * count(taken & value_mask(v));
        return total;
    }

    // RULINGS B5: right, left, keep, repeated; 0 without passing.
    int pass_offset(int64_t hand) const {
        if (!passing) return 0;
        static constexpr int cycle[3] = {1, -1, 0};
        return cycle[(hand - 1) % 3];
    }

    // visit(name, &Rules::member) for every option, by the name rules.py gives it.
    template <class Visit>
    static void each_option(Visit&& visit) {
        using Self = Rules;
        CARDROOM_BAHA_OPTIONS(CARDROOM_OPTION_ENTRY)
    }
};

// A sink that hears nothing: what a batch of play-outs uses.
struct Quiet {
    void hand(const struct Game&) {}
    void pick(int, int) {}
    void pass(int, int, uint64_t) {}
    void play(int, int) {}
    void trick(const struct Game&, int, const uint8_t*, int, uint64_t) {}
    void draw(int, int) {}
    void take(int, const uint8_t*, int) {}
    void score(const struct Game&, const int*, int, const int*) {}
    void end(const struct Game&) {}
};

struct Game {
    Rules rules;
    std::string seed;  // the seed's decimal text, as Python writes it into chance keys
    int n = 4;
    // Every other field, as games/baha/fields.py declares it (generated/baha_fields.hpp, written
    // from that table by python -m cardroom.games.fieldgen).
    CARDROOM_BAHA_GAME_MEMBERS

    // A hand dealt by hand (a Deal checked by games/baha/deal.py): masks and a top-first pile.
    struct Dealt {
        uint64_t hands[MAX_PLAYERS];
        uint64_t leftover;
        uint8_t pile[DECK];
        int pile_len;
    };

    // The first dealer (B9): seat 0, or chance_rng(seed, "dealer").randrange(n).
    void choose_first_dealer() {
        dealer = rules.random_dealer ? static_cast<int>(chance_rng(seed + ":dealer", rules.stream).randbelow(n)) : 0;
    }

    // -- the legal actions ----------------------------------------------------------------

    // The cards (0..51) the seat to act may play or pick now, as a mask; 0 when nobody acts.
    uint64_t legal_mask() const {
        if (turn < 0) return 0;
        uint64_t hand = hands[turn];
        if (phase == PASS) return hand & ~picks[turn];
        if (trick_len) {
            uint64_t follow = hand & colour_mask(colour_of(trick[0]));
            if (follow) return follow;
        }
        return hand;
    }

    bool is_legal(int action) const {
        if (turn < 0 || action < 0 || action >= NUM_ACTIONS) return false;
        bool pick = action >= PASS_BASE;
        if (pick != (phase == PASS)) return false;
        return legal_mask() >> (pick ? action - PASS_BASE : action) & 1;
    }

    // -- transitions (names as in state.py) -------------------------------------------------

    template <class Sink>
    void begin_hand(Sink& sink, const Dealt* dealt) {
        hand_no += 1;
        if (dealt == nullptr) {
            uint8_t deck[DECK];
            baha_deck_order(seed + ":deal:" + std::to_string(hand_no), deck, rules.stream);
            int size = rules.hand_size;
            for (int s = 0; s < n; ++s) {
                uint64_t mask = 0;
                for (int i = s * size; i < (s + 1) * size; ++i) mask |= 1ULL << deck[i];
                hands[s] = mask;
            }
            leftover = 0;
            pile_head = 0;
            pile_len = 0;
            for (int i = n * size; i < DECK; ++i) {
                if (rules.draw_pile)
                    pile[pile_len++] = deck[i];
                else
                    leftover |= 1ULL << deck[i];
            }
        } else {
            for (int s = 0; s < n; ++s) hands[s] = dealt->hands[s];
            leftover = dealt->leftover;
            pile_head = 0;
            pile_len = dealt->pile_len;
            for (int i = 0; i < pile_len; ++i) pile[i] = dealt->pile[i];
        }
        for (int s = 0; s < n; ++s) {
            taken[s] = face_down[s] = picks[s] = passed[s] = received[s] = 0;
            voids[s] = 0;
        }
        trick_len = 0;
        tricks_done = 0;
        played = 0;
        has_last = false;
        leader = (dealer + 1) % n;
        pass_offset = rules.pass_offset(hand_no);
        sink.hand(*this);
        phase = pass_offset ? PASS : PLAY;
        turn = leader;
    }

    // Takes a legal action (is_legal) for the seat to act.
    template <class Sink>
    void apply(Sink& sink, int action) {
        if (action >= PASS_BASE)
            pick(sink, action - PASS_BASE);
        else
            play(sink, action);
    }

    template <class Sink>
    void pick(Sink& sink, int card) {
        picks[turn] |= 1ULL << card;
        sink.pick(turn, card);
        if (count(picks[turn]) < PASS_COUNT) return;
        int next = (turn + 1) % n;
        if (next != leader)
            turn = next;
        else
            end_pass(sink);
    }

    template <class Sink>
    void end_pass(Sink& sink) {
        for (int s = 0; s < n; ++s) hands[s] &= ~picks[s];
        for (int s = 0; s < n; ++s) {
            int to = ((s + pass_offset) % n + n) % n;
            uint64_t cards = picks[s];
            hands[to] |= cards;
            passed[s] = cards;
            received[to] = cards;
            sink.pass(s, to, cards);
        }
        for (int s = 0; s < n; ++s) picks[s] = 0;
        phase = PLAY;
        turn = leader;
    }

    template <class Sink>
    void play(Sink& sink, int card) {
        uint64_t bit = 1ULL << card;
        int seat = turn;
        hands[seat] &= ~bit;
        played |= bit;
        if (trick_len && colour_of(card) != colour_of(trick[0])) voids[seat] |= 1 << colour_of(trick[0]);
        trick[trick_len++] = static_cast<uint8_t>(card);
        sink.play(seat, card);
        if (trick_len < n) {
            turn = (seat + 1) % n;
            return;
        }
        end_trick(sink);
    }

    // The seat (from the leader) whose card takes the trick.
    int trick_winner(const uint8_t* cards) const {
        int led = colour_of(cards[0]);
        int best = 0;
        int top = cards[0];
        for (int i = 1; i < n; ++i) {
            int card = cards[i];
            if (card > top && colour_of(card) == led) {
                best = i;
                top = card;
            }
        }
        return best;
    }

    template <class Sink>
    void end_trick(Sink& sink) {
        uint64_t cards = 0;
        for (int i = 0; i < n; ++i) cards |= 1ULL << trick[i];
        int won = (leader + trick_winner(trick)) % n;
        uint64_t left = leftover;
        if (left) {
            face_down[won] |= left;
            leftover = 0;
        }
        taken[won] |= cards | left;
        tricks_done += 1;
        has_last = true;
        last_leader = leader;
        last_winner = won;
        for (int i = 0; i < n; ++i) last_cards[i] = trick[i];
        sink.trick(*this, won, trick, n, left);
        trick_len = 0;
        if (pile_len) draw_after_trick(sink, won);
        bool empty = true;
        for (int s = 0; s < n; ++s) empty = empty && !hands[s];
        if (empty) {
            end_hand(sink, true);
            return;
        }
        leader = won;
        turn = won;
    }

    template <class Sink>
    void draw_after_trick(Sink& sink, int won) {
        if (pile_len >= n) {
            for (int k = 0; k < n; ++k) {
                int seat = (won + k) % n;
                int card = pile[pile_head++];
                --pile_len;
                hands[seat] |= 1ULL << card;
                voids[seat] = 0;  // a drawn card may be of any colour
                sink.draw(seat, card);
            }
        } else {
            uint64_t rest = 0;
            for (int i = 0; i < pile_len; ++i) rest |= 1ULL << pile[pile_head + i];
            taken[won] |= rest;
            face_down[won] |= rest;
            sink.take(won, pile + pile_head, pile_len);
            pile_head = 0;
            pile_len = 0;
        }
    }

    template <class Sink>
    void end_hand(Sink& sink, bool deal_next) {
        int horns[MAX_PLAYERS], points[MAX_PLAYERS];
        for (int s = 0; s < n; ++s) points[s] = horns[s] = rules.points(taken[s]);
        int moon = -1;
        if (rules.moon) {
            for (int s = 0; s < n; ++s) {
                if ((taken[s] & rules.point_mask) == rules.point_mask) {
                    moon = s;
                    for (int o = 0; o < n; ++o) points[o] = o == s ? 0 : rules.points_per_hand;
                    break;
                }
            }
        }
        for (int s = 0; s < n; ++s) totals[s] += points[s];
        sink.score(*this, horns, moon, points);
        turn = -1;
        int64_t high = totals[0], low = totals[0];
        for (int s = 1; s < n; ++s) {
            if (totals[s] > high) high = totals[s];
            if (totals[s] < low) low = totals[s];
        }
        if (high >= rules.target) {
            int lows = 0, first = -1;
            for (int s = 0; s < n; ++s) {
                if (totals[s] == low) {
                    if (first < 0) first = s;
                    ++lows;
                }
            }
            if (lows == 1) {
                winner = first;
                phase = OVER;
                sink.end(*this);
                return;
            }
        }
        if (deal_next) {
            dealer = (dealer + 1) % n;  // B9: the deal moves to the next seat
            begin_hand(sink, nullptr);
        }
    }

    // BahaState.random_playout: finish the hand with random legal moves (``uniform()`` in
    // [0, 1) picks the k-th lowest legal card), the card play told to nobody; the hand is
    // scored through ``sink`` and the next one not dealt. Passing and the draw-pile variant
    // take the ordinary path, as in Python.
    template <class Sink, class Uniform>
    void random_playout(Sink& sink, Uniform& uniform) {
        int64_t deal = hand_no;
        while (phase == PASS || (pile_len && phase == PLAY)) {
            uint64_t legal = legal_mask();
            int card = nth_bit(legal, static_cast<int>(uniform() * count(legal)));
            apply(sink, phase == PASS ? card + PASS_BASE : card);
            if (hand_no != deal || phase == OVER) return;
        }
        if (phase != PLAY) return;
        while (true) {
            uint64_t hand = hands[turn];
            uint64_t choices = hand;
            if (trick_len) {
                int led = colour_of(trick[0]);
                choices = hand & colour_mask(led);
                if (!choices) {
                    choices = hand;
                    voids[turn] |= 1 << led;
                }
            }
            uint64_t bit = 1ULL << nth_bit(choices, static_cast<int>(uniform() * count(choices)));
            hands[turn] = hand ^ bit;
            played |= bit;
            trick[trick_len++] = static_cast<uint8_t>(lowest(bit));
            if (trick_len < n) {
                turn = (turn + 1) % n;
                continue;
            }
            uint64_t cards = 0;
            for (int i = 0; i < n; ++i) cards |= 1ULL << trick[i];
            int won = (leader + trick_winner(trick)) % n;
            if (leftover) {
                face_down[won] |= leftover;
                cards |= leftover;
                leftover = 0;
            }
            taken[won] |= cards;
            tricks_done += 1;
            trick_len = 0;
            bool empty = true;
            for (int s = 0; s < n; ++s) empty = empty && !hands[s];
            if (empty) break;
            leader = turn = won;
        }
        end_hand(sink, false);
    }
};

}  // namespace baha
}  // namespace cardroom
