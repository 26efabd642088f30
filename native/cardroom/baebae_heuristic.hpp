// BAEBAE's heuristic player in C++: agents/baebae_heuristic.py's rules of thumb and scoring
// model, read from what the seat may know (its hand, every hand's size, the discard pile, the
// totals, the pending decision), the same choice for the same position and the same tie-break
// draws (random.Random(seed).choice among the best, the actions ascending). Every sum is taken
// in the Python's order, so the floats (and so the ties) come out the same.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "cardroom/baebae.hpp"

namespace cardroom {
namespace baebae {

struct Heuristic {
    static constexpr double TEMPO = 3.0, OUT = 40.0, SKIP_SELF = 5.0, PLAY_AGAIN_WORTH = 4.0,
                            OPPONENT_PENALTY = 0.3, WILD_WORTH = 6.0, STUCK_BONUS = 3.0;
    static constexpr int KEEP_WILD_HAND = 4;
    using Key = std::array<double, 3>;

    PyRandom rng;
    // Restricted play (agents/restricted.py): a design never played while the rules allow
    // another action, a design whose optional action is never carried out; -1 for none. The
    // counts say how often the restriction bit: plays forced on it, actions declined.
    int never_play = -1, never_action = -1;
    int64_t forced = 0, declined = 0, avoided = 0;

    // The legal actions less those the restriction forbids (none removed if nothing else is left).
    void restrict_legal(const Game& g, std::vector<int>& legal) {
        const Space& sp = g.space;
        if (g.phase == DECIDE) {
            if (g.pending.kind == K_OPTIONAL && never_action >= 0 && g.prog->card_of[g.pending.card] == never_action) {
                legal = {sp.no()};
                ++declined;
            }
            return;
        }
        if (never_play < 0) return;
        std::vector<int> kept;
        for (int a : legal)
            if (a != never_play) kept.push_back(a);
        if (kept.size() == legal.size()) return;
        if (kept.empty()) {
            ++forced;  // the rules leave no other action: it is played
            return;
        }
        ++avoided;
        legal = std::move(kept);
    }

    // What the seat knows, read once per decision (the Python's _Seen).
    struct Seen {
        const Game* g;
        const Program* p;
        int seat, n, direction;
        std::vector<int> sizes;
        std::vector<int> hand;  // designs, by physical card ascending (the view's order)
        std::vector<int> others;
        std::vector<std::pair<int, int>> unseen;  // (design, count), designs ascending
        int64_t unseen_total = 1;
        double unseen_penalty = 6.0;

        Seen(const Game& game, int s) : g(&game), p(game.prog), seat(s), n(game.n), direction(game.direction) {
            for (const Bits& h : game.hands) sizes.push_back(h.count());
            game.hands[s].each([&](int pid) { hand.push_back(p->card_of[pid]); });
            for (int o = 0; o < n; ++o)
                if (o != s) others.push_back(o);
            std::vector<int> counts(p->designs.size());
            for (size_t d = 0; d < counts.size(); ++d) counts[d] = p->copies[d];
            for (int d : hand) --counts[d];
            for (int pid : game.discard) --counts[p->card_of[pid]];
            int64_t total = 0, points = 0;
            for (size_t d = 0; d < counts.size(); ++d)
                if (counts[d] > 0) {
                    unseen.emplace_back(static_cast<int>(d), counts[d]);
                    total += counts[d];
                    points += static_cast<int64_t>(penalty(static_cast<int>(d))) * counts[d];
                }
            unseen_total = total ? total : 1;
            if (!unseen.empty()) unseen_penalty = static_cast<double>(points) / static_cast<double>(unseen_total);
        }
        int penalty(int d) const { return p->designs[d].penalty; }
        int next_seat(int dir = 0) const { return (((seat + (dir ? dir : direction)) % n) + n) % n; }
        bool matches(int filter, int d) const { return filter < 0 || p->filters[filter][d]; }
        double fraction(int filter) const {
            if (filter < 0) return 1.0;
            int64_t hits = 0;
            for (auto [d, k] : unseen)
                if (p->filters[filter][d]) hits += k;
            return static_cast<double>(hits) / static_cast<double>(unseen_total);
        }
        double holds(int s, int filter) const {
            int size = sizes[s];
            return size ? 1.0 - std::pow(1.0 - fraction(filter), static_cast<double>(size)) : 0.0;
        }
        bool wild(int d) const { return p->designs[d].wild || p->designs[d].declares; }
        bool stuck(int d) const { return !p->designs[d].can_win && !p->designs[d].optional; }
    };

    static double opponent_card(int size) { return 0.5 + 4.5 / static_cast<double>(std::max(size, 1)); }

    static std::vector<int> without(const std::vector<int>& hand, int d) {
        std::vector<int> out = hand;
        auto at = std::find(out.begin(), out.end(), d);
        if (at != out.end()) out.erase(at);
        return out;
    }

    // -- the scoring model ------------------------------------------------------------------

    static Key shed_key(const Seen& s, int d) {
        return {static_cast<double>(s.stuck(d)), static_cast<double>(!s.wild(d)), static_cast<double>(s.penalty(d))};
    }

    static double shed_worth(const Seen& s, const std::vector<int>& cards, int count, const std::vector<int>& hand,
                             bool grown) {
        std::vector<int> chosen = cards;
        std::stable_sort(chosen.begin(), chosen.end(), [&](int a, int b) { return shed_key(s, a) > shed_key(s, b); });
        if (static_cast<int>(chosen.size()) > count) chosen.resize(count);
        double worth = 0.0;
        for (int c : chosen) {
            worth += TEMPO + s.penalty(c) + (s.stuck(c) ? STUCK_BONUS : 0.0);
            if (s.wild(c)) worth -= WILD_WORTH / 2;
        }
        if (!chosen.empty() && chosen.size() == hand.size() && !grown) worth += OUT;
        return worth;
    }

    static double danger(const Seen& s, int d, int nxt) {
        int size = s.sizes[nxt];
        if (size > 2 || nxt == s.seat || s.wild(d)) return 0.0;
        const Design& card = s.p->designs[d];
        int64_t hits = 0;
        for (auto [u, k] : s.unseen) {
            const Design& c = s.p->designs[u];
            if (s.wild(u) || c.suit == card.suit || c.rank == card.rank) hits += k;
        }
        double chance = 1.0 - std::pow(1.0 - static_cast<double>(hits) / static_cast<double>(s.unseen_total),
                                       static_cast<double>(size));
        return chance * (size == 1 ? 8.0 : 3.0);
    }

    // The choose step among the list's steps (nested ones too) whose options carry ``labels``.
    static const Step* choose_step(const Program& p, int list, const std::vector<std::string>& labels) {
        for (int i = 0; list >= 0 && i < p.lists[list].size; ++i) {
            const Step& step = p.step(list, i);
            if (step.op == CHOOSE && static_cast<size_t>(step.options) == labels.size()) {
                bool same = true;
                for (int k = 0; k < step.options && same; ++k)
                    same = p.labels[p.options[step.first_option + k].label] == labels[k];
                if (same) return &step;
            }
            std::vector<int> inner = {step.heads, step.tails};
            for (int k = 0; k < step.options; ++k) inner.push_back(p.options[step.first_option + k].list);
            for (int l : inner)
                if (const Step* found = choose_step(p, l, labels)) return found;
        }
        return nullptr;
    }

    static double value(const Seen& s, int list, const std::vector<int>& hand, int chosen = -1, bool grown = false) {
        double worth = 0.0;
        for (int i = 0; list >= 0 && i < s.p->lists[list].size; ++i) {
            const Step& step = s.p->step(list, i);
            worth += step_value(s, step, hand, chosen, grown);
            grown = grown || may_add(s, step);
        }
        return worth;
    }

    static bool may_add(const Seen& s, const Step& step) {
        switch (step.op) {
            case COIN:
            case CHOOSE: {
                std::vector<int> inner = {step.heads, step.tails};
                for (int k = 0; k < step.options; ++k) inner.push_back(s.p->options[step.first_option + k].list);
                for (int l : inner)
                    for (int i = 0; l >= 0 && i < s.p->lists[l].size; ++i)
                        if (may_add(s, s.p->step(l, i))) return true;
                return false;
            }
            case DRAW: return step.who == T_SELF || step.who == T_ALL || step.who == T_HOLDING;
            case TAKE: return true;
            case GIVE: return step.to == T_SELF;
            default: return step.op == SWAP_HANDS;
        }
    }

    static std::vector<std::pair<int, double>> seats(const Seen& s, int kind, int filter, const std::vector<int>& hand,
                                                     int chosen) {
        int me = s.seat;
        switch (kind) {
            case -1:
            case T_SELF: return {{me, 1.0}};
            case T_NEXT: return {{s.next_seat(), 1.0}};
            case T_PREVIOUS: return {{((me - s.direction) % s.n + s.n) % s.n, 1.0}};
            case T_CHOSEN: return {{chosen >= 0 ? chosen : s.others[0], 1.0}};
            case T_OTHERS: {
                std::vector<std::pair<int, double>> out;
                for (int o : s.others) out.emplace_back(o, 1.0);
                return out;
            }
            case T_ALL: {
                std::vector<std::pair<int, double>> out;
                for (int o = 0; o < s.n; ++o) out.emplace_back(o, 1.0);
                return out;
            }
            default: {
                bool mine = false;
                for (int c : hand) mine = mine || s.matches(filter, c);
                std::vector<std::pair<int, double>> out = {{me, mine ? 1.0 : 0.0}};
                for (int o : s.others) out.emplace_back(o, s.holds(o, filter));
                return out;
            }
        }
    }

    static double opponent_loses(const Seen& s, int seat, int count, int filter) {
        int size = s.sizes[seat];
        double has = s.holds(seat, filter);
        double cost = std::min(count, size) * has * opponent_card(size);
        if (size <= count) cost += OUT * std::pow(s.fraction(filter), static_cast<double>(size));
        return cost;
    }

    static double wild_share(const Seen& s, int filter) {
        int64_t total = 0, wilds = 0;
        for (auto [d, k] : s.unseen)
            if (s.matches(filter, d)) {
                total += k;
                if (s.wild(d)) wilds += k;
            }
        return total ? static_cast<double>(wilds) / static_cast<double>(total) : 0.0;
    }

    static std::vector<int> matching(const Seen& s, int filter, const std::vector<int>& hand) {
        std::vector<int> out;
        for (int c : hand)
            if (s.matches(filter, c)) out.push_back(c);
        return out;
    }

    static double step_value(const Seen& s, const Step& step, const std::vector<int>& hand, int chosen, bool grown) {
        int op = step.op;
        if (op == COIN) {
            double heads = value(s, step.heads, hand, chosen, grown);
            return 0.5 * (heads + value(s, step.tails, hand, chosen, grown));
        }
        if (op == CHOOSE) {
            double best = 0.0;
            for (int k = 0; k < step.options; ++k) {
                double v = value(s, s.p->options[step.first_option + k].list, hand, chosen, grown);
                if (k == 0 || v > best) best = v;
            }
            return best;
        }
        if (op == REVERSE || op == DECLARE_SUIT) return 0.0;
        if (op == PLAY_AGAIN) return PLAY_AGAIN_WORTH;
        if (chosen < 0 && (step.who == T_CHOSEN || step.to == T_CHOSEN)) {
            double best = 0.0;
            for (size_t k = 0; k < s.others.size(); ++k) {
                double v = step_value(s, step, hand, s.others[k], grown);
                if (k == 0 || v > best) best = v;
            }
            return best;
        }
        int me = s.seat;
        double worth = 0.0;
        switch (op) {
            case DRAW:
                for (auto [p, chance] : seats(s, step.who, step.who_filter, hand, chosen)) {
                    if (p == me) worth -= chance * step.count * (TEMPO + s.unseen_penalty);
                    else worth += chance * step.count * opponent_card(s.sizes[p]);
                }
                return worth;
            case SKIP:
                for (auto [p, chance] : seats(s, step.who, step.who_filter, hand, chosen))
                    worth += p == me ? -chance * SKIP_SELF : chance * 0.8 * opponent_card(s.sizes[p]);
                return worth;
            case PENALTY:
                for (auto [p, chance] : seats(s, step.who, step.who_filter, hand, chosen))
                    worth += p == me ? -chance * step.points : chance * step.points * OPPONENT_PENALTY;
                return worth;
            case PEEK: return 0.2;
            case DISCARD:
            case DISCARD_UNDER: {
                int who = op == DISCARD_UNDER ? T_SELF : step.who;
                for (auto [p, chance] : seats(s, who, op == DISCARD_UNDER ? -1 : step.who_filter, hand, chosen)) {
                    if (p == me) {
                        double shed = shed_worth(s, matching(s, step.filter, hand), step.count, hand, grown);
                        worth += chance * shed;
                        if (chance == 1.0 && shed >= OUT) return worth;  // out: the round ends first
                    } else {
                        worth -= chance * opponent_loses(s, p, step.count, step.filter);
                    }
                }
                return worth;
            }
            case GIVE: {
                int receiver = seats(s, step.to, -1, hand, chosen)[0].first;
                for (auto [giver, chance] : seats(s, step.who, step.who_filter, hand, chosen)) {
                    if (giver == receiver) continue;
                    if (giver == me) {
                        std::vector<int> mine = matching(s, step.filter, hand);
                        int moved = std::min(step.count, static_cast<int>(mine.size()));
                        worth += chance * shed_worth(s, mine, step.count, hand, grown);
                        worth += chance * moved * opponent_card(s.sizes[receiver]);
                    } else {
                        worth -= chance * opponent_loses(s, giver, step.count, step.filter);
                        if (receiver == me) {
                            double expected = std::min(step.count, s.sizes[giver]) * s.holds(giver, step.filter);
                            worth -= chance * expected * (TEMPO + s.unseen_penalty);
                        }
                    }
                }
                return worth;
            }
            case TAKE: {
                int victim = seats(s, step.who, step.who_filter, hand, chosen)[0].first;
                if (victim == me) return 0.0;
                double has = s.holds(victim, step.filter);
                double taken = std::min(step.count, s.sizes[victim]) * has;
                double share = wild_share(s, step.filter);
                worth -= opponent_loses(s, victim, step.count, step.filter);
                worth -= taken * (TEMPO + s.unseen_penalty - share * WILD_WORTH);
                worth += taken * share * WILD_WORTH * 0.5;  // the victim loses a wild
                return worth;
            }
            case SWAP_HANDS: {
                int other = seats(s, step.who, step.who_filter, hand, chosen)[0].first;
                if (other == me) return 0.0;
                int theirs = s.sizes[other];
                if (theirs == 0) return OUT;
                int64_t own = 0;
                for (int c : hand) own += s.penalty(c);
                return (static_cast<int>(hand.size()) - theirs) * TEMPO + own - theirs * s.unseen_penalty;
            }
            default: return 0.0;
        }
    }

    // -- choosing ---------------------------------------------------------------------------

    // The action with the highest key; ties broken at random (the actions ascending).
    template <class KeyOf>
    int best(std::vector<int> actions, KeyOf&& key) {
        std::sort(actions.begin(), actions.end());
        std::vector<std::pair<Key, int>> scored;
        for (int a : actions) scored.emplace_back(key(a), a);
        Key top = scored[0].first;
        for (auto& [k, a] : scored) top = std::max(top, k);
        std::vector<int> tied;
        for (auto& [k, a] : scored)
            if (k == top) tied.push_back(a);
        return tied.size() == 1 ? tied[0] : tied[rng.randbelow(tied.size())];
    }

    double play_score(const Seen& s, int d) {
        std::vector<int> after = without(s.hand, d);
        if (after.empty()) return OUT;
        const Design& card = s.p->designs[d];
        double score = static_cast<double>(s.penalty(d));
        if (s.stuck(d)) score += STUCK_BONUS + (after.size() == 1 ? OUT / 2 : 0.0);
        if (after.size() == 1 && s.stuck(after[0])) score -= OUT / 2;
        if (card.effects >= 0) {
            double worth = value(s, card.effects, after);
            score += card.optional ? std::max(worth, 0.0) : worth;
        }
        int direction = card.reverse ? -s.direction : s.direction;
        int nxt = s.next_seat(direction);
        if (card.skip) score += 0.8 * opponent_card(s.sizes[nxt]);
        else score -= danger(s, d, nxt);
        int same = 0;
        for (int c : after) same += s.p->designs[c].suit == card.suit && !s.wild(c);
        score += 0.3 * same;
        return score;
    }

    int act(const Game& g) {
        std::vector<int> legal = g.legal();
        if (never_play >= 0 || never_action >= 0) restrict_legal(g, legal);
        if (legal.size() == 1) return legal[0];
        const Space& sp = g.space;
        Seen s(g, g.turn);
        auto only = [&](auto&& keep) {
            std::vector<int> out;
            for (int a : legal)
                if (keep(a)) out.push_back(a);
            return out;
        };
        if (g.phase == DECIDE) {
            const Decision& d = g.pending;
            int design = g.prog->card_of[d.card];
            int effects = g.prog->designs[design].effects;
            switch (d.kind) {
                case K_DECLARE: {
                    int64_t unseen[4] = {0, 0, 0, 0};
                    for (auto [u, k] : s.unseen) unseen[s.p->designs[u].suit] += k;
                    return best(legal, [&](int a) {
                        int suit = a - sp.declare(), count = 0;
                        int64_t points = 0;
                        for (int c : s.hand)
                            if (s.p->designs[c].suit == suit && !s.wild(c)) ++count, points += s.penalty(c);
                        return Key{static_cast<double>(count), static_cast<double>(points),
                                   -static_cast<double>(unseen[suit])};
                    });
                }
                case K_OPTIONAL: return value(s, effects, s.hand) > 0 ? sp.yes() : sp.no();
                case K_TARGET:
                    return best(legal, [&](int a) {
                        int p = a - sp.target();
                        return Key{value(s, effects, s.hand, p), -static_cast<double>(s.sizes[p]),
                                   -static_cast<double>(g.totals[p])};
                    });
                case K_OPTION: {
                    const Step& pending = g.prog->step(g.frames.back().list, g.frames.back().index);
                    std::vector<std::string> labels;
                    for (int k = 0; k < pending.options; ++k)
                        labels.push_back(g.prog->labels[g.prog->options[pending.first_option + k].label]);
                    const Step* step = choose_step(*g.prog, effects, labels);
                    return best(legal, [&](int a) {
                        if (step == nullptr) return Key{0.0, 0.0, 0.0};
                        int option = a - sp.option();
                        return Key{value(s, g.prog->options[step->first_option + option].list, s.hand), 0.0, 0.0};
                    });
                }
                default: {
                    std::vector<int> picks = only([&](int a) { return a >= sp.select() && a < sp.draw(); });
                    if (picks.empty()) return sp.done();
                    return best(picks, [&](int a) { return shed_key(s, a - sp.select()); });
                }
            }
        }
        if (g.phase == DRAWN) {
            int play = legal[0], design = play;  // the card drawn, then pass
            std::vector<int> after = without(s.hand, design);
            if (s.wild(design) && static_cast<int>(after.size()) >= KEEP_WILD_HAND) return sp.pass();
            const Design& card = s.p->designs[design];
            if (card.effects >= 0 && !card.optional &&
                TEMPO + s.penalty(design) + value(s, card.effects, after) < 0)
                return sp.pass();  // its action costs more than shedding it gains
            return play;
        }
        std::vector<int> plays = only([&](int a) { return a < sp.select(); });
        if (plays.empty()) return *std::min_element(legal.begin(), legal.end());
        std::vector<int> plain;
        for (int a : plays)
            if (!s.wild(a)) plain.push_back(a);
        return best(plain.empty() ? plays : plain, [&](int a) { return Key{play_score(s, a), 0.0, 0.0}; });
    }
};

}  // namespace baebae
}  // namespace cardroom
