// BAEBAE's card-action steps, one handler each (interpreter.py's _step_* and their helpers):
// the Game's members declared in baebae.hpp, defined here.
#pragma once

#include <stdexcept>
#include <utility>
#include <vector>

#include "cardroom/baebae.hpp"

namespace cardroom {
namespace baebae {

// The seats ``kind`` names now; false after asking the actor to choose one.
inline bool Game::players(size_t at, int kind, int filter, std::vector<int>& out) {
    const Frame& f = frames[at];
    int actor = f.actor;
    out.clear();
    switch (kind) {
        case T_SELF: out.push_back(actor); return true;
        case T_NEXT: out.push_back(next_seat(actor)); return true;
        case T_PREVIOUS: out.push_back(((actor - direction) % n + n) % n); return true;
        case T_CHOSEN: {
            int who = rules.chosen_once ? chosen : f.chosen;
            if (who >= 0) {
                out.push_back(who);
                return true;
            }
            if (n == 2) {  // one other seat: no choice to make
                out.push_back(1 - actor);
                return true;
            }
            Decision& d = decision(K_TARGET, actor, f.card);
            for (int s = 0; s < n; ++s)
                if (s != actor) d.choices.push_back(s);
            return ask();
        }
        default: break;
    }
    // (actor + direction * k) mod n for k from 0 (from 1 for the others), a seat at a time
    int s = kind == T_OTHERS ? next_seat(actor) : actor;
    for (int k = kind == T_OTHERS ? 1 : 0; k < n; ++k, s = next_seat(s))
        if (kind != T_HOLDING || holds_any(s, filter)) out.push_back(s);
    return true;
}

// The step's remaining target seats, resolved once when the step starts (in frames[at]).
inline bool Game::targets(size_t at, int kind, int filter) {
    if (!frames[at].has_targets) {  // into the frame's own vector, its room kept step to step
        if (!players(at, kind, filter, frames[at].targets)) return false;
        frames[at].has_targets = true;
    }
    return true;
}

inline bool Game::handle(size_t at, const Step& step) {
    switch (step.op) {
        case DRAW: {
            if (!targets(at, step.who, step.who_filter)) return false;
            for (size_t i = 0; i < frames[at].targets.size(); ++i) {  // drawing changes no frame
                int s = frames[at].targets[i];
                for (int k = 0; k < step.count; ++k)
                    if (draw_one(s, true) < 0) break;
            }
            return true;
        }
        case DISCARD: return selecting(at, step, P_DISCARD);
        case DISCARD_UNDER: return selecting(at, step, P_DISCARD_UNDER);
        case GIVE: return selecting(at, step, P_GIVE);
        case TAKE: return take_step(at, step);
        case SWAP_HANDS: {
            if (!targets(at, step.who, step.who_filter)) return false;
            int other = frames[at].targets[0], actor = frames[at].actor;
            if (other == actor) return true;
            std::swap(hands[actor], hands[other]);
            if (sink->events) sink->swap(actor, other, hands[other]);
            if (sink->events) sink->swap(other, actor, hands[actor]);
            return true;
        }
        case SKIP: {
            if (!targets(at, step.who, step.who_filter)) return false;
            for (int s : frames[at].targets) {
                ++skips[s];
                if (sink->events) sink->effect_skip(frames[at].actor, s);
            }
            return true;
        }
        case REVERSE:
            direction = -direction;
            if (sink->events) sink->reverse(direction);
            return true;
        case DECLARE_SUIT:
            if (step.mark_declare && card_declared) return true;  // the action already named the suit
            return ask_kind(K_DECLARE, frames[at].actor, frames[at].card);
        case PLAY_AGAIN:
            extra_turn = true;
            if (sink->events) sink->play_again(frames[at].actor);
            return true;
        case PEEK: {
            if (!targets(at, step.who, step.who_filter)) return false;
            int other = frames[at].targets[0];
            if (other != frames[at].actor && sink->events) sink->peek(frames[at].actor, other, hands[other]);
            return true;
        }
        case PENALTY: {
            if (!targets(at, step.who, step.who_filter)) return false;
            for (int s : frames[at].targets) {
                round_penalties[s] += step.points;
                if (sink->events) sink->penalty(s, step.points);
            }
            return true;
        }
        case COIN: {
            ++chance;
            bool heads = chance_of("coin", chance)
                             .random() < 0.5;
            if (sink->events) sink->coin(frames[at].actor, heads);
            int branch = heads ? step.heads : step.tails;
            if (branch >= 0) frames.push(branch, frames[at].actor, frames[at].card);
            return true;
        }
        case CHOOSE: {
            Decision& d = decision(K_OPTION, frames[at].actor, frames[at].card);
            for (int k = 0; k < step.options; ++k) d.choices.push_back(k);
            return ask();
        }
        case ASK_OPTIONAL: return ask_kind(K_OPTIONAL, frames[at].actor, frames[at].card);
        default: {  // END_TURN
            int actor = frames[at].actor;
            frames.clear();
            pending.reset();
            advance(actor);
            return false;  // the program is over; run stops
        }
    }
}

// A step in which each target player picks cards (discard, give, discard under).
inline bool Game::selecting(size_t at, const Step& step, int purpose) {
    if (purpose == P_GIVE && frames[at].receiver < 0) {
        if (!players(at, step.to, -1, scratch.seats)) return false;
        frames[at].receiver = scratch.seats[0];
    }
    if (!(purpose == P_DISCARD_UNDER ? targets(at, T_SELF, -1) : targets(at, step.who, step.who_filter)))
        return false;
    while (!frames[at].targets.empty()) {
        Frame& f = frames[at];
        int seat = f.targets[0];
        if (purpose == P_GIVE && seat == f.receiver) {
            f.targets.erase(f.targets.begin());
            continue;
        }
        if (!f.started) f.started = true, f.left = step.count;
        Bits candidates = matching(seat, step.filter);
        if (f.left <= 0 || !candidates.any()) {
            f.targets.erase(f.targets.begin());
            f.started = false;
            continue;
        }
        if (purpose != P_DISCARD_UNDER && candidates.count() <= f.left) {
            for (int pid = candidates.lowest(); pid >= 0; pid = candidates.lowest()) {  // no choice to make
                candidates.clear(pid);
                move_selected(at, step, seat, pid);
                if (round_ended) return false;  // run stops: the round is over
            }
            continue;
        }
        if (purpose != P_DISCARD_UNDER && prog->count_designs(candidates) == 1) {
            move_selected(at, step, seat, candidates.lowest());
            if (round_ended) return false;
            continue;
        }
        Decision& d = decision(K_SELECT, seat, f.card);
        d.candidates = candidates;
        d.may_stop = purpose == P_DISCARD_UNDER, d.purpose = purpose;
        return ask();
    }
    return true;
}

inline void Game::move_selected(size_t at, const Step& step, int seat, int pid) {
    Frame& f = frames[at];
    hands[seat].clear(pid);
    --f.left;
    if (step.op == GIVE) {
        hands[f.receiver].set(pid);
        if (sink->events) sink->give(seat, f.receiver, pid);
    } else {
        // E11: cards played through an action go under the action card. A card lies on the pile
        // once at most, so it is looked for from the top, where the action card was just played,
        // rather than from the bottom of a pile that grows all round.
        size_t above = discard.size();  // the action card's place + 1
        while (above > 0 && discard[above - 1] != f.card) --above;
        if (above == 0) throw std::logic_error("the action card is not on the discard pile");
        discard.insert(discard.begin() + static_cast<std::ptrdiff_t>(above - 1), pid);
        if (!sink->events) {
        } else if (step.op == DISCARD_UNDER) {
            sink->play(seat, pid, true);
        } else {
            sink->discard(seat, pid);
        }
    }
    // The round's end without the unwinding (a throw costs some 27,000 instructions): the flag
    // tells every caller up to run() to return at once.
    if (!hands[seat].any()) finish_round(seat), round_ended = true;
}

inline bool Game::take_step(size_t at, const Step& step) {
    if (!targets(at, step.who, step.who_filter)) return false;
    int victim = frames[at].targets[0], actor = frames[at].actor;
    if (victim == actor) return true;
    std::vector<int> pool = matching(victim, step.filter).list();
    if (pool.empty()) return true;
    ++chance;
    PyRandom rng = chance_of("take", chance);
    size_t k = static_cast<size_t>(step.count) < pool.size() ? static_cast<size_t>(step.count) : pool.size();
    std::vector<int> taken = rng.sample(pool.data(), pool.size(), k);
    for (int pid : taken) {
        hands[victim].clear(pid);
        hands[actor].set(pid);
    }
    if (sink->events) sink->take(victim, actor, taken);
    if (!hands[victim].any()) {
        finish_round(victim);
        round_ended = true;
        return false;  // run stops: the round is over
    }
    return true;
}

}  // namespace baebae
}  // namespace cardroom
