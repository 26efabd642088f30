// Inference of hidden hands for Baha's native ISMCTS (ismcts_baha.hpp): worlds weighted by
// how likely the other seats' play makes them, under an opponent model.
//
// The opponent model is the native heuristic (baha_heuristic.hpp) with noise: a seat plays the
// heuristic's card with chance 1 - epsilon + epsilon / n and each other legal card with chance
// epsilon / n (n legal cards; where the heuristic's lead breaks a tie at random, its chance is
// shared equally by the tied cards). A world's likelihood is the product of these chances over
// the other seats' card plays of the current hand, each judged on the position as it was then,
// reconstructed on the world: the public part (the trick, the cards played, the horns each
// seat had taken face up) from the seat's view of the hand's events, the player's hand as its
// hand in the world plus the cards it has played since. Only what the searching seat observed
// goes in: the plays are public, the hands are the world's.
//
// Left out, because the world does not fix them: the pass picks (a passer's hand before the
// pass holds cards it received, which the world does not deal unless the searcher gave them)
// and, with the draw pile, a seat's plays before its last draw (which card it drew when is not
// in the world). Those decisions weigh nothing (chance 1).
//
// The search's use (a pool per tree): at its first iteration each tree deals ``pool`` worlds
// as the plain search deals them (the seat's knowledge), weighs each by its likelihood, and
// from then on each iteration's world is drawn from the pool in proportion to the weights
// (importance resampling, with replacement). So a search pays ``pool`` likelihoods once, not
// one per iteration per candidate, and the iterations follow the posterior the pool holds.
// Or (``fresh``) each iteration deals a new pool and draws its one world from it: more distinct
// worlds, at ``pool`` likelihoods an iteration.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "baha.hpp"
#include "baha_heuristic.hpp"
#include "ismcts_pool.hpp"
#include "rng.hpp"

namespace cardroom {
namespace baha {
namespace infer {

// One card play by another seat: the public position it was made in, the card, and the cards
// that seat played from this play on (this one included), which its hand then held besides
// its hand now.
struct Decision {
    Game position;  // public fields only; hands[seat] is set per world
    int seat;
    int card;
    uint64_t since;
};

// The other seats' plays of the hand as the searching seat observed them.
struct Observed {
    std::vector<Decision> decisions;
};

// Told the seat's view of the hand's events in order (as KnowledgeBuilder is).
class ObservedBuilder {
  public:
    ObservedBuilder(const Game& like, int seat) : seat_(seat) {
        pub_.rules = like.rules;
        pub_.n = like.n;
        reset();
    }

    void hand() {
        reset();
        out_.decisions.clear();
        for (int& d : last_draw_) d = 0;
    }

    void play(int p, int card) {
        if (pub_.trick_len == 0) pub_.leader = p;
        if (p != seat_) {
            Decision d{pub_, p, card, 0};
            d.position.turn = p;
            out_.decisions.push_back(d);
        }
        pub_.played |= 1ULL << card;
        pub_.trick[pub_.trick_len++] = static_cast<uint8_t>(card);
    }

    void trick(int winner) {
        for (int i = 0; i < pub_.trick_len; ++i) pub_.taken[winner] |= 1ULL << pub_.trick[i];  // face up
        pub_.trick_len = 0;
        pub_.leader = winner;
    }

    void draw(int p) { last_draw_[p] = static_cast<int>(out_.decisions.size()); }

    Observed finish() {
        std::vector<Decision> kept;
        uint64_t since[MAX_PLAYERS] = {0};
        for (size_t i = out_.decisions.size(); i-- > 0;) {
            Decision& d = out_.decisions[i];
            since[d.seat] |= 1ULL << d.card;
            d.since = since[d.seat];
        }
        for (size_t i = 0; i < out_.decisions.size(); ++i) {
            const Decision& d = out_.decisions[i];
            if (static_cast<int>(i) >= last_draw_[d.seat]) kept.push_back(d);
        }
        out_.decisions = std::move(kept);
        return out_;
    }

  private:
    int seat_;
    Game pub_;
    Observed out_;
    int last_draw_[MAX_PLAYERS] = {0};

    void reset() {
        Rules rules = pub_.rules;
        int n = pub_.n;
        pub_ = Game();
        pub_.rules = rules;
        pub_.n = n;
        pub_.phase = PLAY;
    }
};

// The heuristic's chance of playing ``card`` on ``g`` (g.turn to act, ``legal`` its legal cards).
inline double heuristic_chance(const Game& g, uint64_t legal, int card, Heuristic& heuristic) {
    if (count(legal) == 1) return legal >> card & 1 ? 1.0 : 0.0;
    if (g.trick_len == 0) {
        int horns[MAX_PLAYERS];
        horns_shown(g, horns);
        bool mooning = moon_threat(horns, g.n) == g.turn && g.rules.moon;
        if (!mooning) {  // the lead: min by (-higher_out, value), the ties broken at random
            uint64_t known = g.played | g.hands[g.turn];
            int best_out = -1, best_value = 0, ties = 0;
            bool chosen = false;
            for (uint64_t m = legal; m; m &= m - 1) {
                int c = lowest(m);
                uint64_t higher = ((1ULL << (colour_of(c) * VALUES + VALUES)) - 1) & ~((1ULL << (c + 1)) - 1);
                int out = count(higher & ~known);
                if (out > best_out || (out == best_out && value_of(c) < best_value)) {
                    best_out = out;
                    best_value = value_of(c);
                    ties = 1;
                    chosen = c == card;
                } else if (out == best_out && value_of(c) == best_value) {
                    ++ties;
                    chosen = chosen || c == card;
                }
            }
            return chosen ? 1.0 / ties : 0.0;
        }
    }
    return heuristic.act(g) == card ? 1.0 : 0.0;  // no random draw off the plain lead
}

// The chance of each observed decision on the world whose other hands are ``hands``
// (``out`` gets one per decision when given); the log of their product is returned
// (-infinity when a play could not have been made in this world).
inline double log_likelihood(std::vector<Decision>& decisions, const uint64_t* hands, double epsilon,
                             Heuristic& heuristic, std::vector<double>* out = nullptr) {
    double total = 0;
    for (Decision& d : decisions) {
        d.position.hands[d.seat] = hands[d.seat] | d.since;
        uint64_t legal = d.position.legal_mask();
        double chance = 0;
        if (legal >> d.card & 1) {
            double n = static_cast<double>(count(legal));
            chance = (1 - epsilon) * heuristic_chance(d.position, legal, d.card, heuristic) + epsilon / n;
        }
        if (out != nullptr) out->push_back(chance);
        total += chance > 0 ? std::log(chance) : -std::numeric_limits<double>::infinity();
    }
    return total;
}

// A tree's pool of weighted worlds (ismcts_pool.hpp; see the header), with its own copy of the
// decisions, whose positions the weighing rewrites: built on first use.
struct Pool {
    ismcts::Pool<Game> worlds;
    std::vector<Decision> decisions;

    bool built() const { return worlds.built; }

    template <class Deal>
    void build(int size, double epsilon, const Observed& observed, Rng& rng, Heuristic& heuristic, Deal deal) {
        if (!worlds.built) decisions = observed.decisions;
        worlds.build(size, rng, deal,
                     [&](const Game& w) { return log_likelihood(decisions, w.hands, epsilon, heuristic); });
    }

    const Game& draw(Rng& rng) const { return worlds.draw(rng); }
};

}  // namespace infer
}  // namespace baha
}  // namespace cardroom
