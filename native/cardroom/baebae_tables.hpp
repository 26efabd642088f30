// BAEBAE's results tables from native games: whole games of simulate's agents played with no
// Python in the loop, every fact the results tables hold (games/baebae/results.py reads them
// from the log) recorded as it happens into flat arrays, one row a round, a card played or a
// card dealt. Python turns the arrays into the same Arrow tables
// (games/baebae/native_tables.py); tests/native/test_games_tables.py holds the two
// paths to identical rows.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cardroom/baebae.hpp"
#include "cardroom/baebae_batch.hpp"
#include "cardroom/baebae_module.hpp"
#include "cardroom/tables.hpp"

namespace cardroom {
namespace baebae_tables {

using namespace cardroom::baebae;

// The facts of a batch of games, column by column. ``*_game`` is the row's game (its place in
// the batch); a per-seat column holds ``players`` values a row; a card is its physical id.
struct TableRows {
    int players = 0;
    // per game
    std::vector<int64_t> totals;    // games x players
    std::vector<uint8_t> winners;   // games x players: 1 for a seat in first place
    std::vector<uint8_t> stopped;   // stopped by the action guard (no end event, no places)
    std::vector<int64_t> actions;
    std::vector<int32_t> deals, blocked, guarded;
    // per round ended
    std::vector<int32_t> deal_game, deal_no, deal_decisions;
    std::vector<int64_t> deal_points, deal_totals;  // x players
    std::vector<int8_t> deal_out;                    // -1: nobody went out
    std::vector<uint8_t> deal_blocked, deal_guard;
    // per card played (on top, or discarded under another)
    std::vector<int32_t> card_game, card_deal, card_turn, card_card, card_draws, card_skips, card_penalties,
        card_reversals, card_moves;
    std::vector<int8_t> card_seat, card_suit, card_coin;  // suit: -1 none named; coin: -1 none, 0 tails, 1 heads
    std::vector<uint8_t> card_ran, card_under;
    // per card dealt
    std::vector<int32_t> hand_game, hand_deal, hand_card;
    std::vector<int8_t> hand_seat;

    // Every column, by name (tables.hpp hands them to Python, games/baebae/native_tables.py).
    template <class F>
    void columns(F&& f) const {
        f("totals", totals), f("winners", winners), f("stopped", stopped), f("actions", actions);
        f("deals", deals), f("blocked", blocked), f("guarded", guarded);
        f("deal_game", deal_game), f("deal_no", deal_no), f("deal_decisions", deal_decisions);
        f("deal_points", deal_points), f("deal_totals", deal_totals), f("deal_out", deal_out);
        f("deal_blocked", deal_blocked), f("deal_guard", deal_guard);
        f("card_game", card_game), f("card_deal", card_deal), f("card_turn", card_turn), f("card_card", card_card);
        f("card_draws", card_draws), f("card_skips", card_skips), f("card_penalties", card_penalties);
        f("card_reversals", card_reversals), f("card_moves", card_moves), f("card_seat", card_seat);
        f("card_suit", card_suit), f("card_coin", card_coin), f("card_ran", card_ran), f("card_under", card_under);
        f("hand_game", hand_game), f("hand_deal", hand_deal), f("hand_card", hand_card), f("hand_seat", hand_seat);
    }
};

// The sink that writes a game's facts into TableRows, as games/baebae/results.py reads them from
// the log: the card played is credited with what its play did until the next turn began.
// ``current`` is the decision being taken (0-based; -1 before the first), set by the driving
// loop. Every event of the log comes through one of these calls, so ``after_play`` knows
// whether the event before is a play.
struct Recorder : Sink {
    TableRows& rows;
    const Program& prog;
    int32_t game = 0;
    int64_t current = -1;
    int64_t first = 0;  // the first decision of the round
    int32_t deal = 0;
    int64_t acting = -1;  // the row of the card whose play is still having its effects
    bool after_play = false;
    int deals = 0, blocked = 0, guarded = 0;

    Recorder(TableRows& r, const Program& p) : rows(r), prog(p) {}
    Recorder(TableRows& r, const Rules& rules) : Recorder(r, *rules.program) {}

    void other() { after_play = false; }

    void round(const Game& g) override {
        other();
        acting = -1;
        deal = static_cast<int32_t>(g.round_no);
        first = current + 1;
        for (int s = 0; s < g.n; ++s) {
            g.hands[s].each([&](int pid) {
                rows.hand_game.push_back(game);
                rows.hand_deal.push_back(deal);
                rows.hand_seat.push_back(static_cast<int8_t>(s));
                rows.hand_card.push_back(pid);
            });
        }
    }
    void on_start(int, int) override { other(); }
    void round_end(const Game& g, int out, const std::vector<int64_t>& penalties, bool was_blocked,
                   bool guard) override {
        if (acting >= 0 && after_play) rows.card_ran[acting] = 0;  // the round's last card: no effect (E10)
        other();
        acting = -1;
        rows.deal_game.push_back(game);
        rows.deal_no.push_back(deal);
        rows.deal_decisions.push_back(static_cast<int32_t>(current + 1 - first));
        for (int s = 0; s < g.n; ++s) {
            rows.deal_points.push_back(penalties[s]);
            rows.deal_totals.push_back(g.totals[s]);
        }
        rows.deal_out.push_back(static_cast<int8_t>(out));
        rows.deal_blocked.push_back(was_blocked);
        rows.deal_guard.push_back(guard);
        ++deals;
        blocked += was_blocked;
        guarded += guard;
    }
    void end(const Game&) override {
        other();
        acting = -1;
    }
    void pass(int) override {
        other();
        acting = -1;
    }
    void reshuffle(const Game&) override { other(); }
    void draw(int, int, bool forced) override {
        other();
        if (!forced) acting = -1;  // a voluntary draw ends what the card before did
        else if (acting >= 0) ++rows.card_draws[acting];
    }
    void play(int seat, int pid, bool under) override {
        after_play = true;
        int64_t row = static_cast<int64_t>(rows.card_game.size());
        const Design& design = prog.design_of(pid);
        rows.card_game.push_back(game);
        rows.card_deal.push_back(deal);
        rows.card_turn.push_back(static_cast<int32_t>(current - first + 1));
        rows.card_seat.push_back(static_cast<int8_t>(seat));
        rows.card_card.push_back(pid);
        // an optional action runs only when its player says so (the "optional" effect)
        rows.card_ran.push_back(!under && design.effects >= 0 && !design.optional);
        rows.card_draws.push_back(0);
        rows.card_skips.push_back(0);
        rows.card_penalties.push_back(0);
        rows.card_reversals.push_back(0);
        rows.card_moves.push_back(0);
        rows.card_suit.push_back(-1);
        rows.card_coin.push_back(-1);
        rows.card_under.push_back(under);
        if (!under) acting = row;  // a card discarded under another is part of that card's action
    }
    void skip(int) override { other(); }
    void optional(int, int, bool carried) override {
        other();
        if (acting >= 0) rows.card_ran[acting] = carried;
    }
    void declare(int, int suit) override {
        other();
        if (acting >= 0) rows.card_suit[acting] = static_cast<int8_t>(suit);
    }
    void target(int, int, int) override { other(); }
    void choose(int, int, int) override { other(); }
    void moved(int count) {
        other();
        if (acting >= 0) rows.card_moves[acting] += count;
    }
    void give(int, int, int) override { moved(1); }
    void discard(int, int) override { moved(1); }
    void take(int, int, const std::vector<int>& taken) override { moved(static_cast<int>(taken.size())); }
    void swap(int, int, const Bits& cards) override { moved(cards.count()); }
    void effect_skip(int, int) override {
        other();
        if (acting >= 0) ++rows.card_skips[acting];
    }
    void reverse(int) override {
        other();
        if (acting >= 0) ++rows.card_reversals[acting];
    }
    void play_again(int) override { other(); }
    void peek(int, int, const Bits&) override { other(); }
    void penalty(int, int points) override {
        other();
        if (acting >= 0) rows.card_penalties[acting] += points;
    }
    void coin(int, bool heads) override {
        other();
        if (acting >= 0) rows.card_coin[acting] = heads;
    }
};

// BAEBAE's traits for the generic results tables (tables.hpp).
struct TablesTraits {
    using Rules = baebae::Rules;
    using Game = baebae::Game;
    using Rows = TableRows;
    using Recorder = baebae_tables::Recorder;
    using Seat = baebae::Seat;
    using Bound = baebae_py::PyRules;  // BaebaeRules: the rules and their compiled program
    static const Rules& rules_of(const Bound& rules) { return rules.rules; }

    static void begin(Game& g, const Rules& rules, int64_t seed, Recorder& sink) {
        g.setup(rules, std::to_string(seed));
        g.sink = &sink;
        g.begin_round();
    }
    static bool over(const Game& g) { return g.phase == OVER; }
    static void before(Recorder& sink, int64_t actions) { sink.current = actions; }
    static void apply(Game& g, Recorder&, int action) { g.apply(action); }
    static void finish(const Game& g, Recorder& sink, int64_t actions, TableRows& rows) {
        int n = g.n;
        int64_t best = g.totals[0];
        for (int s = 0; s < n; ++s) best = g.totals[s] < best ? g.totals[s] : best;
        for (int s = 0; s < n; ++s) {
            rows.totals.push_back(g.totals[s]);
            rows.winners.push_back(g.phase == OVER && g.totals[s] == best);
        }
        rows.stopped.push_back(g.phase != OVER);
        rows.actions.push_back(actions);
        rows.deals.push_back(sink.deals);
        rows.blocked.push_back(sink.blocked);
        rows.guarded.push_back(sink.guarded);
    }
};

}  // namespace baebae_tables
}  // namespace cardroom
