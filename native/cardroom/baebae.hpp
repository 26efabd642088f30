// BAEBAE's rules in C++: the same state machine and card-action interpreter as the Python
// reference (games/baebae/state.py and interpreter.py), move for move, running the deck's
// compiled program (baebae_program.hpp). Chance is the reference's: chance_rng(seed, "round",
// n), ("reshuffle" | "take" | "coin", round, k), shuffled and sampled as random.Random does.
// Events go to a Sink, which the Python face fills with the reference's dicts and a batch
// leaves quiet.
#pragma once

#include <charconv>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cardroom/options.hpp"
#include "cardroom/baebae_program.hpp"
#include "cardroom/chance.hpp"
#include "cardroom/generated/baebae_fields.hpp"

namespace cardroom {
namespace baebae {

enum Phase { PLAY, DRAWN, DECIDE, OVER };
enum Kind { K_NONE = -1, K_OPTIONAL, K_DECLARE, K_TARGET, K_OPTION, K_SELECT };
enum Purpose { P_NONE, P_DISCARD, P_DISCARD_UNDER, P_GIVE };

// The options of games/baebae/rules.py that the core reads, each by its name there (options.hpp):
// (type, name, default). hand_size is the resolved one, chosen_once the reading of chosen_target.
#define CARDROOM_BAEBAE_OPTIONS(X)     \
    X(int, players, 4)                 \
    X(int, rounds, 3)                  \
    X(int, hand_size, 5)               \
    X(int, turn_limit, 2000)           \
    X(bool, draw_when_able, false)     \
    X(bool, chosen_once, true)         \
    X(Stream, stream, Stream::Twister)

// The options, and the deck they play compiled (from Python's program.compile_rules).
struct Rules {
    CARDROOM_BAEBAE_OPTIONS(CARDROOM_OPTION_MEMBER)
    std::shared_ptr<const Program> program;

    // visit(name, &Rules::member) for every option, by the name rules.py gives it.
    template <class Visit>
    static void each_option(Visit&& visit) {
        using Self = Rules;
        CARDROOM_BAEBAE_OPTIONS(CARDROOM_OPTION_ENTRY)
    }
};

struct Game;

// What happened, event by event (the reference's event types; the Python sink writes the dicts).
struct Sink {
    // False for a sink that takes only round_end and end (a batch's counters, a quiet env): the
    // game then skips the other calls, a load and a branch in place of a call through the table.
    bool events = true;
    virtual ~Sink() = default;
    virtual void round(const Game&) {}
    virtual void on_start(int, int) {}
    virtual void round_end(const Game&, int, const std::vector<int64_t>&, bool, bool) {}
    virtual void end(const Game&) {}
    virtual void pass(int) {}
    virtual void reshuffle(const Game&) {}
    virtual void draw(int, int, bool) {}
    virtual void play(int, int, bool) {}
    virtual void skip(int) {}
    virtual void optional(int, int, bool) {}
    virtual void declare(int, int) {}
    virtual void target(int, int, int) {}
    virtual void choose(int, int, int) {}
    virtual void give(int, int, int) {}
    virtual void discard(int, int) {}
    virtual void take(int, int, const std::vector<int>&) {}
    virtual void swap(int, int, const Bits&) {}
    virtual void effect_skip(int, int) {}
    virtual void reverse(int) {}
    virtual void play_again(int) {}
    virtual void peek(int, int, const Bits&) {}
    virtual void penalty(int, int) {}
    virtual void coin(int, bool) {}
};

struct RoundOver {};  // thrown the moment a round ends (RULINGS E10), caught where apply is

struct Frame {
    int list = 0, index = 0, actor = 0, card = 0;
    bool has_targets = false;
    std::vector<int> targets;
    int receiver = -1, chosen = -1, left = 0;
    bool started = false;

    void next_step() {
        ++index;
        has_targets = false;
        targets.clear();
        receiver = chosen = -1;
        left = 0;
        started = false;
    }
};

// The interpreter's stack of frames. A popped frame keeps its room: the next frame pushed in
// its place reuses its targets' vector, so a step allocates nothing once the stack has grown.
// A copy holds the live frames only.
class Frames {
  public:
    Frames() = default;
    Frames(const Frames& o) : slots_(o.slots_.begin(), o.slots_.begin() + static_cast<std::ptrdiff_t>(o.size_)), size_(o.size_) {}
    Frames& operator=(const Frames& o) {
        if (this == &o) return *this;
        if (slots_.size() < o.size_) slots_.resize(o.size_);
        for (size_t i = 0; i < o.size_; ++i) slots_[i] = o.slots_[i];
        size_ = o.size_;
        return *this;
    }
    bool empty() const { return size_ == 0; }
    size_t size() const { return size_; }
    Frame& operator[](size_t i) { return slots_[i]; }
    const Frame& operator[](size_t i) const { return slots_[i]; }
    Frame& back() { return slots_[size_ - 1]; }
    const Frame& back() const { return slots_[size_ - 1]; }
    const Frame* begin() const { return slots_.data(); }
    const Frame* end() const { return slots_.data() + size_; }
    void clear() { size_ = 0; }
    void pop_back() { --size_; }
    // A new frame on top: list ``list`` from its first step, for ``actor`` and ``card``.
    Frame& push(int list, int actor, int card) {
        if (size_ == slots_.size()) slots_.emplace_back();
        Frame& f = slots_[size_++];
        f.list = list, f.index = 0, f.actor = actor, f.card = card;
        f.has_targets = false;
        f.targets.clear();
        f.receiver = f.chosen = -1;
        f.left = 0;
        f.started = false;
        return f;
    }
    void push_back(const Frame& f) {
        if (size_ == slots_.size()) slots_.emplace_back();
        slots_[size_++] = f;  // a copy into the slot: its vector's room kept
    }

  private:
    std::vector<Frame> slots_;
    size_t size_ = 0;  // the live frames: slots_[0, size_)
};

struct Decision {
    int kind = K_NONE, seat = 0, card = 0;
    std::vector<int> choices;
    Bits candidates;
    bool may_stop = false;
    int purpose = P_NONE;

    // Back to Decision{} (no decision pending), the vectors' room kept.
    void reset() {
        kind = K_NONE, seat = 0, card = 0, may_stop = false, purpose = P_NONE;
        choices.clear();
        candidates.w.assign(0, 0);
    }
};

// The action layout (actions.ActionSpace).
struct Space {
    int designs = 0, players = 0, options = 6;
    int select() const { return designs; }
    int draw() const { return 2 * designs; }
    int pass() const { return draw() + 1; }
    int done() const { return draw() + 2; }
    int declare() const { return draw() + 3; }
    int yes() const { return draw() + 7; }
    int no() const { return draw() + 8; }
    int target() const { return draw() + 9; }
    int option() const { return target() + players; }
    int size() const { return option() + options; }
};

// Buffers a game reuses action after action (no allocation once they have grown). Never copied
// with the game: a copy starts with empty ones.
struct Scratch {
    std::string key;                  // a chance event's text key
    std::vector<int> deck, seats;     // a round's deck; seats a step names
    std::vector<int64_t> penalties;   // a round's penalties
    Scratch() = default;
    Scratch(const Scratch&) {}
    Scratch& operator=(const Scratch&) { return *this; }
};

// ``text`` with the decimal digits of ``value`` appended (as std::to_string writes them).
inline void append_number(std::string& text, int64_t value) {
    char digits[24];
    char* end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    text.append(digits, end);
}

struct Game {
    Rules rules;
    const Program* prog = nullptr;
    Space space;
    std::string seed;
    int n = 0;
    // Every other field of the state, as games/baebae/fields.py declares it
    // (generated/baebae_fields.hpp, written from that table by python -m cardroom.games.fieldgen).
    CARDROOM_BAEBAE_GAME_MEMBERS
    bool over_ranked = false;
    Sink* sink = nullptr;
    Scratch scratch;
    // Set when a step ended the round (finish_round done): every caller up to run() returns at
    // once, as the RoundOver throw would unwind them; apply and begin_round clear it.
    bool round_ended = false;

    void setup(const Rules& r, const std::string& seed_text) {
        rules = r;
        prog = r.program.get();
        n = r.players;
        seed = seed_text;
        space = Space{static_cast<int>(prog->designs.size()), n, 6};
        totals.assign(n, 0);
    }

    // Back to a new Game's state, for the next game of a batch (setup and begin_round follow),
    // keeping the vectors' room: every field a new Game starts with that begin_round does not set.
    void restart() {
        round_no = 0, dealer = 0, direction = 1, turn = -1, phase = PLAY, suit = 0, declared = false;
        extra_turn = false, drawn = -1, idle_count = 0, turns = 0, card_declared = false, chosen = -1;
        chance = 0, guard_rounds = 0, over_ranked = false, round_ended = false;
        frames.clear(), pending.reset(), shame.clear(), skips.clear(), idle.clear();
        round_penalties.clear(), totals.clear();
    }

    // engine.chance_rng's text key of a chance event, "seed:kind:round" and ":count" after it
    // when ``count`` is not negative, built in the scratch buffer.
    const std::string& chance_key(const char* kind, int64_t count = -1) {
        std::string& key = scratch.key;
        key.assign(seed);
        key += ':';
        key += kind;
        key += ':';
        append_number(key, round_no);
        if (count >= 0) {
            key += ':';
            append_number(key, count);
        }
        return key;
    }

    // chance_rng(chance_key(kind, count), rules.stream). On the split stream the key's FNV-1a
    // hash is taken over its parts as they would be written, without making the text.
    PyRandom chance_of(const char* kind, int64_t count = -1) {
        if (rules.stream != Stream::SplitMix) return chance_rng(chance_key(kind, count), rules.stream);
        char digits[24];
        uint64_t h = key_hash(seed.data(), seed.size());
        h = key_hash(":", 1, h);
        h = key_hash(kind, std::strlen(kind), h);
        h = key_hash(":", 1, h);
        char* end = std::to_chars(digits, digits + sizeof digits, round_no).ptr;
        h = key_hash(digits, static_cast<size_t>(end - digits), h);
        if (count >= 0) {
            h = key_hash(":", 1, h);
            end = std::to_chars(digits, digits + sizeof digits, count).ptr;
            h = key_hash(digits, static_cast<size_t>(end - digits), h);
        }
        return PyRandom::splitmix(h);
    }

    // ((seat + direction) % n + n) % n, direction being 1 or -1: the wrap past either end by
    // arithmetic (the compiler made the choice two branches, which wrap is as random as the play).
    int next_seat(int seat) const {
        int s = seat + direction;
        s += n & -static_cast<int>(s < 0);
        return s - (n & -static_cast<int>(s >= n));
    }
    const Design& top() const { return prog->design_of(discard.back()); }
    bool can_draw() const { return !stock.empty() || discard.size() > 1; }

    // RULINGS E4: rank or suit in play, or wild, or an action that declares a suit.
    bool matches(const Design& c) const {
        if (c.wild || c.declares || c.suit == suit) return true;
        return !declared && c.rank == top().rank;
    }

    Bits playable_mask(int seat) const {
        Bits out(prog->words);
        playable_words(seat, out.w.data());
        return out;
    }

    // playable_mask's prog->words words, written to ``out``.
    void playable_words(int seat, uint64_t* out) const {
        int words = prog->words;
        const uint64_t* hand = hands[seat].w.data();
        const uint64_t* s = prog->suit_mask[suit].w.data();
        const uint64_t* r = prog->rank_mask[top().rank].w.data();
        const uint64_t* wild = prog->wild_mask.w.data();
        uint64_t ranks = declared ? 0 : ~0ULL;
        int held = 0;
        for (int i = 0; i < words; ++i) {
            out[i] = hand[i] & (wild[i] | s[i] | (r[i] & ranks));
            held += hand[i] ? (hand[i] & (hand[i] - 1) ? 2 : 1) : 0;
        }
        if (held <= 1) {  // the hand's last card (E9)
            const uint64_t* no_win = prog->no_win_mask.w.data();
            for (int i = 0; i < words; ++i) out[i] &= ~no_win[i];
        }
    }

    std::vector<int> legal() const {
        std::vector<int> out;
        legal_into(out);
        return out;
    }

    // The legal actions, ascending, written over ``out`` (a buffer kept by a caller that asks
    // every action: no allocation once it has grown).
    void legal_into(std::vector<int>& out) const {
        out.clear();
        if (turn < 0) return;
        if (phase == PLAY) {
            prog->designs_into(playable_mask(turn), out);
            if (!out.empty() && !(rules.draw_when_able && can_draw())) return;
            out.push_back(can_draw() ? space.draw() : space.pass());
            return;
        }
        if (phase == DRAWN) {
            if (matches(prog->design_of(drawn))) out.push_back(prog->card_of[drawn]);
            out.push_back(space.pass());
            return;
        }
        const Decision& d = pending;
        switch (d.kind) {
            case K_OPTIONAL:
                out.push_back(space.yes());
                out.push_back(space.no());
                return;
            case K_DECLARE:
                for (int k = 0; k < 4; ++k) out.push_back(space.declare() + k);
                return;
            case K_TARGET:
                for (int s : d.choices) out.push_back(space.target() + s);
                return;
            case K_OPTION:
                for (int k : d.choices) out.push_back(space.option() + k);
                return;
            default: {
                prog->designs_into(d.candidates, out);
                for (int& design : out) design += space.select();
                if (d.may_stop) out.push_back(space.done());
                return;
            }
        }
    }

    // choose's play of a deck of one word whose designs are one card each (``turn`` is a seat,
    // the phase PLAY): small enough for a caller's fast path.
    template <class Draw>
    int choose_one_word(Draw&& draw) const {
        const Program::FirstWords& m = prog->first_words;
        uint64_t hand = hands[turn].w.data()[0];
        uint64_t ranks = m.rank[prog->rank_of[discard.back()]] & (0 - static_cast<uint64_t>(!declared));
        uint64_t mask = hand & (m.wild | m.suit[suit] | ranks);
        if (!(hand & (hand - 1))) mask &= ~m.no_win;  // the hand's last card (E9)
        int designs = popcount64(mask);
        bool more = designs == 0 || (rules.draw_when_able && can_draw());
        int k = static_cast<int>(draw(static_cast<uint64_t>(designs + more)));
        if (k >= designs) return can_draw() ? space.draw() : space.pass();
        return prog->card_of[nth_bit(mask, k)];
    }
    // choose after a draw (the phase DRAWN): play the card drawn or pass.
    template <class Draw>
    int choose_drawn(Draw&& draw) const {
        bool playable = matches(prog->design_of(drawn));
        int k = static_cast<int>(draw(playable ? 2 : 1));
        return playable && k == 0 ? prog->card_of[drawn] : space.pass();
    }
    bool one_word_play() const { return turn >= 0 && phase == PLAY && prog->words == 1 && prog->single_copies; }

    // The action at place ``draw(size)`` of legal_into's list (``size`` its length, the place
    // from 0 to size - 1), without making the list: a random agent's choice, counted and
    // picked over the card masks. -1 (nothing drawn) when no seat is to act.
    template <class Draw>
    int choose(Draw&& draw) const {
        if (turn < 0) return -1;
        if (phase == PLAY) {
            int words = prog->words;
            if (words == 1 && prog->single_copies) return choose_one_word(draw);  // a deck of up to 64 cards, each its own design
            uint64_t local[Words::INLINE];
            Bits wide;  // for a deck of more words than that
            uint64_t* mask = local;
            if (words > static_cast<int>(Words::INLINE)) wide = Bits(words), mask = wide.w.data();
            playable_words(turn, mask);
            int designs = prog->count_designs(mask, words);
            bool more = designs == 0 || (rules.draw_when_able && can_draw());  // draw or pass after them
            int k = static_cast<int>(draw(static_cast<uint64_t>(designs + more)));
            if (k < designs) return prog->nth_design(mask, words, k);
            return can_draw() ? space.draw() : space.pass();
        }
        if (phase == DRAWN) return choose_drawn(draw);
        const Decision& d = pending;
        switch (d.kind) {
            case K_OPTIONAL: return draw(2) == 0 ? space.yes() : space.no();
            case K_DECLARE: return space.declare() + static_cast<int>(draw(4));
            case K_TARGET: return space.target() + d.choices[draw(d.choices.size())];
            case K_OPTION: return space.option() + d.choices[draw(d.choices.size())];
            default: {
                int designs = prog->count_designs(d.candidates);
                int k = static_cast<int>(draw(static_cast<uint64_t>(designs + d.may_stop)));
                return k < designs ? space.select() + prog->nth_design(d.candidates, k) : space.done();
            }
        }
    }

    // -- rounds ---------------------------------------------------------------------------

    // ``first``: a hand-made first round's deck in dealing order, else shuffled from the seed.
    void begin_round(const std::vector<int>* first = nullptr) {
        ++round_no;
        std::vector<int>& deck = scratch.deck;  // read only before run() below, which may deal again
        if (first) {
            deck = *first;
        } else {
            deck.assign(prog->identity.begin(), prog->identity.end());  // 0, 1, ..., cards - 1
            chance_of("round").shuffle(deck.data(), deck.size());
        }
        int size = rules.hand_size;
        hands.assign(n, Bits(prog->words));
        for (int s = 0; s < n; ++s)
            for (int k = 0; k < size; ++k) hands[s].set(deck[s * size + k]);
        size_t rest = static_cast<size_t>(n) * size;
        int starter = deck[rest];
        stock.assign(deck.rbegin(), deck.rend() - static_cast<std::ptrdiff_t>(rest) - 1);  // top last
        discard.assign(1, starter);
        const Design& card = prog->design_of(starter);
        suit = card.suit;  // E3: a wild starter's printed suit is the suit in play
        declared = false;
        direction = 1;
        round_penalties.assign(n, 0);
        skips.assign(n, 0);
        extra_turn = false;
        drawn = -1;
        idle.assign(n, 0);
        idle_count = 0;
        turns = 0;
        frames.clear();
        pending.reset();
        card_declared = false;
        chosen = -1;
        chance = 0;
        if (sink->events) sink->round(*this);
        phase = PLAY;
        turn = next_seat(dealer);
        if (card.on_start && card.effects >= 0) {
            frames.push(prog->end_turn, dealer, starter);
            frames.push(card.optional ? prog->ask_optional : card.effects, dealer, starter);
            if (sink->events) sink->on_start(dealer, starter);
            try {
                run();
            } catch (const RoundOver&) {
            }
            round_ended = false;
        }
    }

    // The round's end, then the unwinding to apply (RoundOver): nothing after it runs.
    [[noreturn]] void end_round(int out, bool blocked = false, bool guard = false) {
        finish_round(out, blocked, guard);
        throw RoundOver{};
    }

    // The round's end without the unwinding (a throw costs some 30,000 instructions), for a
    // caller that returns straight to apply, where nothing follows it either.
    void finish_round(int out, bool blocked = false, bool guard = false) {
        std::vector<int64_t>& penalties = scratch.penalties;  // read before the next round deals
        penalties.resize(n);
        for (int s = 0; s < n; ++s) {
            int64_t points = 0;
            hands[s].each([&](int pid) { points += prog->design_of(pid).penalty; });
            penalties[s] = points + round_penalties[s];
        }
        for (int s = 0; s < n; ++s) totals[s] += penalties[s];
        if (guard) ++guard_rounds;
        frames.clear();
        pending.reset();
        drawn = -1;
        sink->round_end(*this, out, penalties, blocked, guard);
        if (round_no >= rules.rounds) {
            end_game();
        } else {
            dealer = (dealer + 1) % n;  // E2: the deal moves left
            begin_round();
        }
    }

    void end_game() {
        int64_t worst = totals[0], best = totals[0];
        for (int64_t t : totals) worst = t > worst ? t : worst, best = t < best ? t : best;
        shame.clear();
        if (worst != best)
            for (int s = 0; s < n; ++s)
                if (totals[s] == worst) shame.push_back(s);
        over_ranked = true;
        phase = OVER;
        turn = -1;
        sink->end(*this);
    }

    // -- taking an action -----------------------------------------------------------------

    void apply(int action) {
        try {
            take(turn, action);
        } catch (const RoundOver&) {
        }
        round_ended = false;
    }

    void take(int seat, int action) {
        if (phase == DECIDE) return decide(seat, action);
        if (action == space.draw()) return voluntary_draw(seat);
        if (action == space.pass()) return pass(seat);
        int pid = phase == DRAWN ? drawn : prog->lowest_of_design(hands[seat], action);
        play(seat, pid);
    }

    [[gnu::always_inline]] void start_turn(int seat) {
        turn = seat;
        phase = PLAY;
        drawn = -1;
        if (++turns > rules.turn_limit) end_round(-1, true, true);
    }

    void pass(int seat) {
        bool nothing = phase == PLAY;  // passing at the start of a turn: nothing to draw
        if (sink->events) sink->pass(seat);
        if (nothing) {
            if (!idle[seat]) idle[seat] = 1, ++idle_count;
            // E6: every player passed in turn. pass is reached from apply alone (through take):
            // returning ends the action as the throw would, without the unwinding.
            if (idle_count == n) return finish_round(-1, true);
        }
        advance(seat);
    }

    void clear_idle() {
        if (idle_count) idle.assign(n, 0), idle_count = 0;
    }

    void voluntary_draw(int seat) {
        int pid = draw_one(seat, false);
        clear_idle();
        drawn = pid;
        phase = DRAWN;
    }

    // The stockpile's top card to ``seat``, reshuffling the discard pile first when empty (E6).
    int draw_one(int seat, bool forced) {
        if (stock.empty()) {
            if (discard.size() < 2) return -1;
            stock.assign(discard.begin(), discard.end() - 1);  // the stock is empty: it takes them
            discard.erase(discard.begin(), discard.end() - 1);
            ++chance;
            chance_of("reshuffle", chance).shuffle(stock.data(), stock.size());
            if (sink->events) sink->reshuffle(*this);
        }
        int pid = stock.back();
        stock.pop_back();
        hands[seat].set(pid);
        if (sink->events) sink->draw(seat, pid, forced);
        return pid;
    }

    [[gnu::always_inline]] void play(int seat, int pid) {
        clear_idle();
        drawn = -1;
        hands[seat].clear(pid);
        discard.push_back(pid);
        const Design& card = prog->design_of(pid);
        suit = card.suit;
        declared = false;
        card_declared = false;
        chosen = -1;
        if (sink->events) sink->play(seat, pid, false);
        // E10: the last card has no effect at all. play is reached from apply alone (through
        // take), so returning ends the action as the throw would, and the commonest end of a
        // round pays no unwinding.
        if (!hands[seat].any()) return finish_round(seat);
        if (card.effects < 0 && !card.has_marks) return advance(seat);
        frames.clear();
        frames.push(card.marks, seat, pid);
        if (card.effects >= 0) frames.push(card.optional ? prog->ask_optional : card.effects, seat, pid);
        run();
    }

    void advance(int seat) {
        if (extra_turn) {
            extra_turn = false;
            return start_turn(seat);
        }
        int nxt = next_seat(seat);
        for (int k = 0; k < n * 8; ++k) {
            if (!skips[nxt]) break;
            --skips[nxt];
            if (sink->events) sink->skip(nxt);
            nxt = next_seat(nxt);
        }
        start_turn(nxt);
    }

    // -- the interpreter (interpreter.py) -------------------------------------------------

    void run() {
        while (!frames.empty()) {
            size_t at = frames.size() - 1;
            Frame& f = frames[at];
            if (f.index >= prog->lists[f.list].size) {
                frames.pop_back();
                continue;
            }
            const Step& step = prog->step(f.list, f.index);
            if (step.op == END_TURN) {  // the commonest step, without handle's call (as handle does it)
                int actor = f.actor;
                frames.clear();
                pending.reset();
                advance(actor);
                return;  // the program is over
            }
            if (!handle(at, step) || round_ended) return;
            frames[at].next_step();
        }
        pending.reset();
    }

    // The pending decision made afresh in place (its vectors' room kept) for ``kind``, ``seat``
    // and ``card``: the caller fills in the rest, then asks().
    Decision& decision(int kind, int seat, int card) {
        pending.reset();
        pending.kind = kind, pending.seat = seat, pending.card = card;
        return pending;
    }

    // The pending decision put to its seat; false (the interpreter stops for it).
    bool ask() {
        turn = pending.seat;
        phase = DECIDE;
        return false;
    }

    bool ask_kind(int kind, int seat, int card) {
        decision(kind, seat, card);
        return ask();
    }

    void decide(int seat, int action) {
        int kind = pending.kind, card = pending.card;
        int pid = -1;  // the card selected (a select decision's action other than done)
        if (kind != K_OPTIONAL && kind != K_DECLARE && kind != K_TARGET && kind != K_OPTION && action != space.done())
            pid = prog->lowest_of_design(pending.candidates, action - space.select());
        pending.reset();
        size_t at = frames.size() - 1;
        switch (kind) {
            case K_OPTIONAL: {
                bool carry = action == space.yes();
                if (sink->events) sink->optional(seat, card, carry);
                frames[at].next_step();
                if (carry) frames.push(prog->design_of(card).effects, seat, card);
                break;
            }
            case K_DECLARE:
                declare_suit(seat, action - space.declare());
                frames[at].next_step();
                break;
            case K_TARGET: {
                int who = action - space.target();
                if (rules.chosen_once) chosen = who; else frames[at].chosen = who;
                if (sink->events) sink->target(seat, card, who);
                break;
            }
            case K_OPTION: {
                int number = action - space.option();
                const Step& step = prog->step(frames[at].list, frames[at].index);
                const Option& option = prog->options[step.first_option + number];
                if (sink->events) sink->choose(seat, number, option.label);
                frames[at].next_step();
                frames.push(option.list, frames[at].actor, frames[at].card);
                break;
            }
            default: {
                if (action == space.done()) {
                    frames[at].left = 0;
                } else {
                    move_selected(at, prog->step(frames[at].list, frames[at].index), seat, pid);
                    if (round_ended) return;  // the round is over: nothing after it runs
                }
            }
        }
        run();
    }

    void declare_suit(int seat, int s) {
        suit = s;
        declared = true;
        card_declared = true;
        if (sink->events) sink->declare(seat, s);
    }

    // matching(seat, filter).any(), without making the set.
    bool holds_any(int seat, int filter) const {
        const uint64_t* hand = hands[seat].w.data();
        int words = prog->words;
        if (filter < 0) {
            for (int i = 0; i < words; ++i)
                if (hand[i]) return true;
            return false;
        }
        const uint64_t* f = prog->filter_mask[filter].w.data();
        for (int i = 0; i < words; ++i)
            if (hand[i] & f[i]) return true;
        return false;
    }

    Bits matching(int seat, int filter) const {
        if (filter < 0) return hands[seat];
        const Bits& f = prog->filter_mask[filter];
        Bits out(prog->words);
        for (int i = 0; i < prog->words; ++i) out.w[i] = hands[seat].w[i] & f.w[i];
        return out;
    }

    // The step handlers (baebae_steps.hpp). handle, called by run alone, is inlined into it: a
    // step pays no call (some 17 instructions, six registers saved and restored; 5 fewer an
    // action, no time told apart from the call's: benchmarks/README.md, the fifth cut).
    bool players(size_t at, int kind, int filter, std::vector<int>& out);
    bool targets(size_t at, int kind, int filter);
    [[gnu::always_inline]] bool handle(size_t at, const Step& step);
    bool selecting(size_t at, const Step& step, int purpose);
    void move_selected(size_t at, const Step& step, int seat, int pid);
    bool take_step(size_t at, const Step& step);
};

}  // namespace baebae
}  // namespace cardroom

#include "cardroom/baebae_steps.hpp"
