// Inference of hidden hands for BAEBAE's native ISMCTS (ismcts_baebae.hpp): worlds weighted by
// how likely the other seats' play makes them, under an opponent model; Baha's counterpart is
// ismcts_infer.hpp.
//
// What is judged: each card another seat played at its turn (not a card played under another
// card by an action, nor the card just drawn, whose play is its own small choice) since that
// seat last took a card it may not have held before (a draw, a card given, a swap): for those
// plays the hand it chose from is its hand in the world plus the cards it has played (or put
// under) since, which the searching seat saw. What a play had to match (the top card's suit and
// rank, or the declared suit) is read from the seat's view of the round's events, in
// baebae_knowledge.hpp's reading, so nothing the seat did not see goes in.
//
// And each suit another seat declared after a wild card (since it last took a card): the
// heuristic names the suit of which its hand (the wild card gone) holds the most plain cards,
// then the most penalty (then the suit least seen, which the model leaves out: the suits level
// on the first two share the chance).
//
// The opponent model is the native heuristic (baebae_heuristic.hpp) softened: among the cards
// it would choose from (the plain ones when it holds a plain card that matches: its first rule,
// else every card that matches), a card is played with chance proportional to
// exp(play_score / TEMPERATURE), each matching card besides with epsilon / n (n cards match).
// The scores are the heuristic's own, on the position as it is now with that hand (the hand
// sizes, the direction and the discard pile are today's, not those of the play's moment: a
// model, not a replay). A card the model finds no match for (an action's exception) says
// nothing (chance 1).
//
// The search's use (a pool per tree, ismcts_pool.hpp, as Baha's): the tree's first iteration
// deals ``infer`` worlds as the plain search does, weighs each by the product of the chances,
// and each iteration draws its world from that pool in proportion to the weights (importance
// resampling), its chance seed drawn afresh.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "cardroom/baebae.hpp"
#include "cardroom/baebae_heuristic.hpp"
#include "cardroom/ismcts_pool.hpp"
#include "cardroom/rng.hpp"

namespace cardroom {
namespace baebae {
namespace infer {

constexpr double TEMPERATURE = 1.0;

// One card play by another seat and what it had to match (``kind`` PLAY), or a suit it declared
// (DECLARE: ``suit``, ``design`` -1); ``since`` is every design that seat played or put under
// from this decision on (a play's own card first), which its hand then held besides its hand now.
enum Kind { PLAY = 0, DECLARE = 1 };

struct Decision {
    int kind = PLAY;
    int seat = -1, design = -1;
    int top_rank = 0, suit = 0;
    bool declared = false;
    std::vector<int> since;
};

// Fed by the knowledge reading (baebae_knowledge.hpp), event by event.
class Recorder {
  public:
    explicit Recorder(int players) : open_(static_cast<size_t>(players)) {}

    void round() {
        decisions_.clear();
        for (auto& o : open_) o.clear();
    }
    void play(int p, int design, int top_rank, int suit, bool declared) {
        decisions_.push_back(Decision{PLAY, p, design, top_rank, suit, declared, {}});
        open_[static_cast<size_t>(p)].push_back(decisions_.size() - 1);
        gone(p, design);
    }
    void declare(int p, int suit) {
        decisions_.push_back(Decision{DECLARE, p, -1, 0, suit, true, {}});
        open_[static_cast<size_t>(p)].push_back(decisions_.size() - 1);
    }
    // A card ``p`` held left its hand for everyone to see (played, put under).
    void gone(int p, int design) {
        for (size_t i : open_[static_cast<size_t>(p)]) decisions_[i].since.push_back(design);
    }
    // ``p`` took a card, or lost one unseen: its earlier plays' hands are no longer its hand in a
    // world plus what it played since, so they are not judged.
    void reset(int p) {
        for (size_t i : open_[static_cast<size_t>(p)]) decisions_[i].seat = -1;
        open_[static_cast<size_t>(p)].clear();
    }
    std::vector<Decision> decisions() const {
        std::vector<Decision> out;
        for (const Decision& d : decisions_)
            if (d.seat >= 0) out.push_back(d);
        return out;
    }

  private:
    std::vector<Decision> decisions_;
    std::vector<std::vector<size_t>> open_;
};

inline bool wild(const Program& p, int d) { return p.designs[d].wild || p.designs[d].declares; }

inline bool matches(const Program& p, const Decision& d, int c) {
    const Design& x = p.designs[c];
    return wild(p, c) || x.suit == d.suit || (!d.declared && x.rank == d.top_rank);
}

// The chance of a declared suit: the suits first on (plain cards, their penalty) share 1 - e.
inline double declare_chance(const Decision& d, const Program& p, const std::vector<int>& hand, double epsilon) {
    int count[4] = {0, 0, 0, 0}, points[4] = {0, 0, 0, 0};
    for (int c : hand)
        if (!wild(p, c)) ++count[p.designs[c].suit], points[p.designs[c].suit] += p.designs[c].penalty;
    int ties = 0;
    bool first = false;
    for (int s = 0; s < 4; ++s) {
        bool beaten = false;
        for (int o = 0; o < 4; ++o)
            beaten = beaten || count[o] > count[s] || (count[o] == count[s] && points[o] > points[s]);
        if (!beaten) ++ties, first = first || s == d.suit;
    }
    return (1 - epsilon) * (first ? 1.0 / ties : 0.0) + epsilon / 4;
}

// The model's chance of decision ``d`` on world ``w`` (see the header).
inline double chance(const Decision& d, const Game& w, double epsilon, Heuristic& judge) {
    const Program& p = *w.prog;
    std::vector<int> hand;
    w.hands[d.seat].each([&](int pid) { hand.push_back(p.card_of[pid]); });
    hand.insert(hand.end(), d.since.begin(), d.since.end());
    if (d.kind == DECLARE) return declare_chance(d, p, hand, epsilon);
    int n = 0;
    bool plain = false;
    for (int c : hand)
        if (matches(p, d, c)) ++n, plain = plain || !wild(p, c);
    if (!matches(p, d, d.design)) return 1.0;  // a play the model does not cover (an action's exception)
    if (plain && wild(p, d.design)) return epsilon / n;  // a wild card while a plain one matched
    Heuristic::Seen s(w, d.seat);
    s.hand = hand;
    s.sizes[static_cast<size_t>(d.seat)] = static_cast<int>(hand.size());
    // What this seat had not seen then: the deck but its hand and the discard pile before ``since``.
    std::vector<int> counts(p.designs.size());
    for (size_t k = 0; k < counts.size(); ++k) counts[k] = p.copies[k];
    for (int c : hand) --counts[static_cast<size_t>(c)];
    for (int pid : w.discard) --counts[static_cast<size_t>(p.card_of[pid])];
    for (int c : d.since) ++counts[static_cast<size_t>(c)];
    s.unseen.clear();
    int64_t total = 0, points = 0;
    for (size_t k = 0; k < counts.size(); ++k)
        if (counts[k] > 0) {
            s.unseen.emplace_back(static_cast<int>(k), counts[k]);
            total += counts[k];
            points += static_cast<int64_t>(p.designs[k].penalty) * counts[k];
        }
    s.unseen_total = total ? total : 1;
    s.unseen_penalty = total ? static_cast<double>(points) / static_cast<double>(total) : 6.0;
    // The candidates, a score per card (copies alike), the chosen design's share.
    std::vector<double> scores;
    double top = -std::numeric_limits<double>::infinity(), mine = 0;
    for (int c : hand) {
        if (!matches(p, d, c) || (plain && wild(p, c))) continue;
        double score = judge.play_score(s, c);
        scores.push_back(score);
        if (c == d.design) mine = score;
        top = std::max(top, score);
    }
    double sum = 0;
    for (double x : scores) sum += std::exp((x - top) / TEMPERATURE);
    int copies = 0;
    for (int c : hand) copies += c == d.design;
    double share = copies * std::exp((mine - top) / TEMPERATURE) / sum;
    return (1 - epsilon) * share + epsilon / n;
}

inline double log_likelihood(const std::vector<Decision>& decisions, const Game& w, double epsilon, Heuristic& judge,
                             std::vector<double>* out = nullptr) {
    double total = 0;
    for (const Decision& d : decisions) {
        double c = chance(d, w, epsilon, judge);
        if (out != nullptr) out->push_back(c);
        total += std::log(c);
    }
    return total;
}

// The decisions to and from Python: (kind, player, design, top rank, suit, declared, since).
inline pybind11::list to_python(const std::vector<Decision>& decisions) {
    namespace py = pybind11;
    py::list out;
    for (const Decision& d : decisions) {
        py::list since;
        for (int c : d.since) since.append(c);
        out.append(py::make_tuple(d.kind, d.seat, d.design, d.top_rank, d.suit, d.declared, since));
    }
    return out;
}

inline std::vector<Decision> from_python(const pybind11::list& found, const Game& g) {
    namespace py = pybind11;
    std::vector<Decision> out;
    int designs = static_cast<int>(g.prog->designs.size());
    auto design = [designs](py::handle x) {
        int d = py::cast<int>(x);
        if (d < 0 || d >= designs) throw py::value_error("an observed play names no design of the deck");
        return d;
    };
    for (py::handle item : found) {
        py::tuple t = py::cast<py::tuple>(item);
        if (t.size() != 7)
            throw py::value_error("an observed play is (kind, player, design, top rank, suit, declared, since)");
        Decision d;
        d.kind = py::cast<int>(t[0]);
        if (d.kind != PLAY && d.kind != DECLARE) throw py::value_error("an observed play's kind is 0 (a play) or 1 (a suit declared)");
        d.seat = py::cast<int>(t[1]);
        if (d.seat < 0 || d.seat >= g.n) throw py::value_error("an observed play names no seat of the game");
        d.design = d.kind == DECLARE ? -1 : design(t[2]);
        d.top_rank = py::cast<int>(t[3]);
        d.suit = py::cast<int>(t[4]);
        if (d.suit < 0 || d.suit > 3) throw py::value_error("an observed play's suit is 0 to 3");
        d.declared = py::cast<bool>(t[5]);
        for (py::handle c : py::cast<py::list>(t[6])) d.since.push_back(design(c));
        if (d.kind == PLAY && (d.since.empty() || d.since.front() != d.design))
            throw py::value_error("an observed play's since starts with the card played");
        out.push_back(std::move(d));
    }
    return out;
}

// A tree's pool of weighted worlds (ismcts_pool.hpp): built on first use.
using Pool = ismcts::Pool<Game>;

}  // namespace infer
}  // namespace baebae
}  // namespace cardroom
