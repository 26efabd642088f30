// Restricted play (Jaffe et al.): BAEBAE games between heuristic players, one seat of each game
// forbidden to play one design while the rules allow another action, or to carry out one design's
// optional action (agents/restricted.py is the same player in Python). Paired with the same seeds
// unrestricted, the difference is what the card (or its action) is worth to its player.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "cardroom/baebae.hpp"
#include "cardroom/baebae_batch.hpp"
#include "cardroom/baebae_heuristic.hpp"
#include "cardroom/baebae_module.hpp"

namespace cardroom {
namespace baebae_restricted {

using namespace cardroom::baebae;

struct Restricted {
    std::vector<int64_t> totals;  // games x players
    std::vector<int> winners;     // games x players: 1 for a seat in first place
    std::vector<uint8_t> stopped;
    std::vector<int64_t> forced, declined, avoided;  // per game, of the restricted seat
};

// Game i: seed seeds[i], every seat the heuristic seeded as simulate seeds it (seed * 1000 + s),
// seat seats[i] (-1: none) restricted to never play never_play and never carry out never_action.
inline void play_restricted(const Rules& rules, const std::vector<int64_t>& seeds, const std::vector<int>& seats,
                            int never_play, int never_action, int64_t max_actions, Restricted& out) {
    int n = rules.players;
    std::vector<Heuristic> players;
    for (size_t i = 0; i < seeds.size(); ++i) {
        int64_t seed = seeds[i];
        Game g;
        g.setup(rules, std::to_string(seed));
        std::vector<int64_t> points;
        Counter sink;
        sink.points = &points;
        g.sink = &sink;
        g.begin_round();
        players.clear();
        AgentRngs rngs(seed, rules.stream);
        for (int s = 0; s < n; ++s) players.push_back(Heuristic{rngs(s)});
        int restricted = seats[i];
        if (restricted >= 0) {
            players[restricted].never_play = never_play;
            players[restricted].never_action = never_action;
        }
        int64_t actions = 0;
        while (g.phase != OVER && actions < max_actions) {
            g.apply(players[g.turn].act(g));
            ++actions;
        }
        int64_t best = g.totals[0];
        for (int s = 0; s < n; ++s) best = g.totals[s] < best ? g.totals[s] : best;
        for (int s = 0; s < n; ++s) {
            out.totals.push_back(g.totals[s]);
            out.winners.push_back(g.phase == OVER && g.totals[s] == best);
        }
        out.stopped.push_back(g.phase != OVER);
        out.forced.push_back(restricted >= 0 ? players[restricted].forced : 0);
        out.declined.push_back(restricted >= 0 ? players[restricted].declined : 0);
        out.avoided.push_back(restricted >= 0 ? players[restricted].avoided : 0);
    }
}

// baebae_restricted_games(rules, seeds, seats, never_play, never_action, max_actions): per game totals and winners (flat, games x
// players), stopped, and the restricted seat's forced plays, declined actions and avoided plays.
inline void register_baebae_restricted(pybind11::module_& m) {
    namespace py = pybind11;
    m.def(
        "baebae_restricted_games",
        [](const baebae_py::PyRules& given, const std::vector<int64_t>& seeds, const std::vector<int>& seats,
           int never_play, int never_action, int64_t max_actions) {
            const Rules& rules = given.rules;
            if (seats.size() != seeds.size()) throw py::value_error("one restricted seat (or -1) a game");
            for (int s : seats)
                if (s < -1 || s >= rules.players) throw py::value_error("a restricted seat is -1 or a seat of the game");
            int designs = static_cast<int>(rules.program->designs.size());
            if (never_play < -1 || never_play >= designs || never_action < -1 || never_action >= designs)
                throw py::value_error("a restricted design is -1 or a design of the deck");
            Restricted out;
            {
                py::gil_scoped_release unlocked;  // no Python object is touched while the games run
                play_restricted(rules, seeds, seats, never_play, never_action, max_actions, out);
            }
            py::dict result;
            result["totals"] = out.totals;
            result["winners"] = out.winners;
            result["stopped"] = out.stopped;
            result["forced"] = out.forced;
            result["declined"] = out.declined;
            result["avoided"] = out.avoided;
            return result;
        },
        py::arg("rules"), py::arg("seeds"), py::arg("seats"), py::arg("never_play"), py::arg("never_action"),
        py::arg("max_actions"));
}

}  // namespace baebae_restricted
}  // namespace cardroom
