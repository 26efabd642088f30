// Baha's results tables from native games: whole games of simulate's agents played with no
// Python in the loop, every fact the results tables hold (games/baha/results.py reads them
// from the log) recorded as it happens into flat arrays, one row a deal, a card played, a card
// dealt or passed, a trick. Python turns the arrays into the same Arrow tables
// (games/baha/native_tables.py); tests/native/test_games_tables.py holds the two paths to
// identical rows.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "baha.hpp"
#include "baha_heuristic.hpp"
#include "chance.hpp"
#include "tables.hpp"

namespace cardroom {
namespace baha {

// One seat of simulate's agents, seeded as `cardroom simulate` seeds it (random.Random(seed)):
// the random agent (agents/random_agent.py: randrange(len(legal)) over the legal actions in
// ascending order) or the heuristic (agents/baha_heuristic.py, baha_heuristic.hpp).
struct SimulateSeat {
    bool heuristic;
    Heuristic player;  // its rng is the random agent's too

    int act(const Game& g) {
        if (heuristic) return player.act(g);
        uint64_t legal = g.legal_mask();
        int k = static_cast<int>(player.rng.randbelow(static_cast<uint64_t>(count(legal))));
        int card = nth_bit(legal, k);
        return g.phase == PASS ? card + PASS_BASE : card;
    }
};

// The facts of a batch of games, column by column. ``*_game`` is the row's game (its place in
// the batch); a per-seat or per-card column holds ``players`` values a row.
struct TableRows {
    int players = 0;
    // per game
    std::vector<int64_t> totals;  // games x players
    std::vector<int32_t> winner;  // -1: stopped by the action guard
    std::vector<int64_t> actions;
    std::vector<int32_t> deals;
    std::vector<int32_t> moons;
    // per deal (a scored hand)
    std::vector<int32_t> deal_game, deal_no, deal_decisions;
    std::vector<int64_t> deal_points, deal_totals;  // x players
    std::vector<int8_t> deal_moon, deal_pass;        // moon: -1 none; pass: the offset's sign
    // per card played
    std::vector<int32_t> card_game, card_deal, card_turn, card_trick, card_horns;
    std::vector<int8_t> card_seat, card_card, card_taken_by;  // taken_by: -1 for a trick cut short
    std::vector<uint8_t> card_led, card_won;
    // per card dealt, or come in the pass
    std::vector<int32_t> hand_game, hand_deal;
    std::vector<int8_t> hand_seat, hand_card;
    std::vector<uint8_t> hand_passed, hand_received;
    // per trick
    std::vector<int32_t> trick_game, trick_deal, trick_no, trick_horns;
    std::vector<int8_t> trick_leader, trick_winner, trick_cards;  // cards: x players, in play order

    // Every column, by name (tables.hpp hands them to Python, games/baha/native_tables.py).
    template <class F>
    void columns(F&& f) const {
        f("totals", totals), f("winner", winner), f("actions", actions), f("deals", deals), f("moons", moons);
        f("deal_game", deal_game), f("deal_no", deal_no), f("deal_decisions", deal_decisions);
        f("deal_points", deal_points), f("deal_totals", deal_totals), f("deal_moon", deal_moon);
        f("deal_pass", deal_pass);
        f("card_game", card_game), f("card_deal", card_deal), f("card_turn", card_turn), f("card_trick", card_trick);
        f("card_horns", card_horns), f("card_seat", card_seat), f("card_card", card_card);
        f("card_taken_by", card_taken_by), f("card_led", card_led), f("card_won", card_won);
        f("hand_game", hand_game), f("hand_deal", hand_deal), f("hand_seat", hand_seat), f("hand_card", hand_card);
        f("hand_passed", hand_passed), f("hand_received", hand_received);
        f("trick_game", trick_game), f("trick_deal", trick_deal), f("trick_no", trick_no);
        f("trick_horns", trick_horns), f("trick_leader", trick_leader), f("trick_winner", trick_winner);
        f("trick_cards", trick_cards);
    }
};

// The sink that writes a game's facts into TableRows, as games/baha/results.py reads them from
// the log: ``turn`` is the decision within the hand (picks counted), set by the driving loop.
struct Recorder {
    Recorder(TableRows& r, const Rules&) : rows(r) {}

    TableRows& rows;
    int32_t game = 0;
    int32_t turn = 0;  // decisions taken in this hand so far
    int moons = 0;
    int deals = 0;
    int32_t dealt_row[DECK] = {0};  // the hands row of each card dealt this hand
    int pending = 0;                // card rows of the trick being played
    uint8_t pending_seat[MAX_PLAYERS] = {0};
    uint8_t pending_card[MAX_PLAYERS] = {0};
    int32_t pending_turn[MAX_PLAYERS] = {0};
    int32_t deal = 0;

    void hand(const Game& g) {
        deal = static_cast<int32_t>(g.hand_no);
        turn = 0;
        for (int s = 0; s < g.n; ++s) {
            for (uint64_t m = g.hands[s]; m; m &= m - 1) {
                int card = lowest(m);
                dealt_row[card] = static_cast<int32_t>(rows.hand_game.size());
                add_hand(s, card, false);
            }
        }
    }
    void add_hand(int seat, int card, bool received) {
        rows.hand_game.push_back(game);
        rows.hand_deal.push_back(deal);
        rows.hand_seat.push_back(static_cast<int8_t>(seat));
        rows.hand_card.push_back(static_cast<int8_t>(card));
        rows.hand_passed.push_back(0);
        rows.hand_received.push_back(received);
    }
    void pick(int, int) {}
    void pass(int, int to, uint64_t cards) {
        for (uint64_t m = cards; m; m &= m - 1) {
            int card = lowest(m);
            rows.hand_passed[dealt_row[card]] = 1;
            add_hand(to, card, true);
        }
    }
    void play(int seat, int card) {
        pending_seat[pending] = static_cast<uint8_t>(seat);
        pending_card[pending] = static_cast<uint8_t>(card);
        pending_turn[pending] = turn;
        ++pending;
    }
    // The trick's card rows, taken by ``won`` (-1: cut short by the action guard, trick 0).
    void flush(const Game& g, int trick_no, int won) {
        for (int i = 0; i < pending; ++i) {
            int card = pending_card[i];
            rows.card_game.push_back(game);
            rows.card_deal.push_back(deal);
            rows.card_turn.push_back(pending_turn[i]);
            rows.card_seat.push_back(static_cast<int8_t>(pending_seat[i]));
            rows.card_card.push_back(static_cast<int8_t>(card));
            rows.card_trick.push_back(trick_no);
            rows.card_led.push_back(i == 0);
            rows.card_won.push_back(pending_seat[i] == won);
            rows.card_horns.push_back(g.rules.card_points(value_of(card)));
            rows.card_taken_by.push_back(static_cast<int8_t>(won));
        }
        pending = 0;
    }
    void trick(const Game& g, int won, const uint8_t* cards, int size, uint64_t) {
        uint64_t mask = 0;
        for (int i = 0; i < size; ++i) mask |= 1ULL << cards[i];
        rows.trick_game.push_back(game);
        rows.trick_deal.push_back(deal);
        rows.trick_no.push_back(g.tricks_done);
        rows.trick_leader.push_back(static_cast<int8_t>(pending_seat[0]));
        rows.trick_winner.push_back(static_cast<int8_t>(won));
        for (int i = 0; i < size; ++i) rows.trick_cards.push_back(static_cast<int8_t>(cards[i]));
        rows.trick_horns.push_back(g.rules.points(mask));
        flush(g, g.tricks_done, won);
    }
    void draw(int, int) {}
    void take(int, const uint8_t*, int) {}
    void score(const Game& g, const int*, int moon, const int* points) {
        moons += moon >= 0;
        deals += 1;
        rows.deal_game.push_back(game);
        rows.deal_no.push_back(deal);
        rows.deal_decisions.push_back(turn);
        for (int s = 0; s < g.n; ++s) {
            rows.deal_points.push_back(points[s]);
            rows.deal_totals.push_back(g.totals[s]);
        }
        rows.deal_moon.push_back(static_cast<int8_t>(moon));
        rows.deal_pass.push_back(static_cast<int8_t>(g.pass_offset > 0 ? 1 : g.pass_offset < 0 ? -1 : 0));
    }
    void end(const Game&) {}
};

// Baha's traits for the generic results tables (tables.hpp).
struct TablesTraits {
    using Rules = baha::Rules;
    using Game = baha::Game;
    using Rows = TableRows;
    using Recorder = baha::Recorder;
    using Seat = SimulateSeat;
    using Bound = baha::Rules;  // BahaRules
    static const Rules& rules_of(const Bound& rules) { return rules; }

    static void begin(Game& g, const Rules& rules, int64_t seed, Recorder& sink) {
        g.rules = rules;
        g.n = rules.players;
        g.seed = std::to_string(seed);
        g.choose_first_dealer();
        g.begin_hand(sink, nullptr);
    }
    static bool over(const Game& g) { return g.phase == OVER; }
    static void before(Recorder& sink, int64_t) { ++sink.turn; }
    static void apply(Game& g, Recorder& sink, int action) { g.apply(sink, action); }
    static void finish(const Game& g, Recorder& sink, int64_t actions, TableRows& rows) {
        sink.flush(g, 0, -1);  // a trick cut short: its cards were played all the same
        for (int s = 0; s < g.n; ++s) rows.totals.push_back(g.totals[s]);
        rows.winner.push_back(g.winner);
        rows.actions.push_back(actions);
        rows.deals.push_back(sink.deals);
        rows.moons.push_back(sink.moons);
    }
};

}  // namespace baha
}  // namespace cardroom
