"""Restricted play: what each card (and each optional action) of a BAEBAE deck is worth to its
player, from paired games of the heuristic forbidden it against the heuristic unrestricted.

For every card, ``games`` games (game ``i`` of seed ``seed + i``) are played twice: once by
heuristic players in every seat, once with seat ``i mod players`` the restricted player
(:class:`~cardroom.agents.restricted.RestrictedAgent`: the same heuristic, never playing that
card while the rules allow another action; or never carrying out that card's optional
action). The same seed deals the same cards and seeds every player alike, so a game differs
only where the restriction changed a choice: the difference is taken game by game (paired t
95% interval). A card's *worth* is how many points a game its player would be worse off against the others
without it (its total less the others' mean, restricted minus free: positive means the card
helps whoever holds it), its own penalty alone, and the win share it would have lost.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from cardroom import native
from cardroom.analysis.report import Column, Plot, Report, Section, Table
from cardroom.analysis.stats import holm, paired_difference
from cardroom.analysis.verdict import restrict_verdict
from cardroom.engine import RulesError
from cardroom.sim.report import deck_words
from cardroom.sim.tournament import MAX_ACTIONS

__all__ = ["Played", "play_restricted", "restricted_report"]


@dataclass
class Played:
    """Games of one restriction: per game every seat's total and first places, and the
    restricted seat's forced plays, declined actions and avoided plays."""

    totals: list[list[int]]
    winners: list[list[bool]]
    forced: list[int]
    declined: list[int]
    avoided: list[int]


def _native_restricted(rules: Any) -> Callable[..., dict[str, list[int]]] | None:
    """The game's native restricted batch (its native module's ``restricted_games``), when the
    game runs natively (on the engine chosen now: the run's one reading) and has one."""
    batch = native.Engine.chosen().batch(rules.spec)
    found: Callable[..., dict[str, list[int]]] | None = getattr(batch, "restricted_games", None)
    return found


def _share(winners: list[bool], seat: int) -> float:
    first = sum(winners)
    return 1.0 / first if winners[seat] and first else 0.0


def _margin(totals: list[int], seat: int) -> float:
    """The seat's total less the mean of the others': below 0, it is doing better than they."""
    others = [t for s, t in enumerate(totals) if s != seat]
    return totals[seat] - sum(others) / len(others)


def play_restricted(
    rules: Any,
    seeds: Sequence[int],
    seats: Sequence[int],
    card: str | None,
    action: str | None,
    *,
    engine: str = "auto",
) -> Played:
    """The games, natively when the engine runs natively (``engine="auto"``) or on the Python
    agents (``"python"``: :class:`~cardroom.agents.restricted.RestrictedAgent` in a
    :class:`~cardroom.match.Match`); the two play the very same games."""
    players = rules.players
    restricted_games = _native_restricted(rules) if engine == "auto" else None
    if restricted_games is not None:
        index = rules.design_of_key
        found = restricted_games(
            rules, seeds, seats, index[card] if card else -1, index[action] if action else -1, MAX_ACTIONS
        )
        totals, winners = found["totals"], found["winners"]
        return Played(
            [list(totals[i * players : (i + 1) * players]) for i in range(len(seeds))],
            [[bool(w) for w in winners[i * players : (i + 1) * players]] for i in range(len(seeds))],
            list(found["forced"]),
            list(found["declined"]),
            list(found["avoided"]),
        )
    from cardroom import agents
    from cardroom.agents.restricted import RestrictedAgent
    from cardroom.match import Match

    played = Played([], [], [], [], [])
    for seed, seat in zip(seeds, seats, strict=True):
        state = rules.new_game(seed)
        seated: list[Any] = []
        restricted: RestrictedAgent | None = None
        for s in range(players):
            if s == seat:
                restricted = RestrictedAgent(seed=seed * 1000 + s, card=card, action=action)
                seated.append(restricted)
            else:
                seated.append(agents.make("heuristic", seed=seed * 1000 + s))
        Match(state, seated, max_actions=MAX_ACTIONS).run()
        totals = list(state.scores)
        best = min(totals)
        played.totals.append(totals)
        played.winners.append([state.is_over and t == best for t in totals])
        played.forced.append(restricted.forced if restricted else 0)
        played.declined.append(restricted.declined if restricted else 0)
        played.avoided.append(restricted.avoided if restricted else 0)
    return played


_ABOUT = [
    "Restricted play (Jaffe et al. 2012): for each card, the same games played twice on the same seeds, "
    "once by heuristic players in every seat and once with one seat (seat i mod players in game i) "
    "forbidden to play the card while the rules allow it any other action (never: when the card is all "
    "it can play and it may not draw instead, it plays it, counted as forced); for each optional action, "
    "one seat that never carries it out.",
    "Worth in points (the ranking): the restricted seat's final total less the mean of the others' totals, "
    "minus the same in the same game unrestricted (positive: the card puts its player that many points a "
    "game better off against the others, whether by saving its own penalty or adding to theirs); worth in "
    "own penalty: its own total only; worth in wins: its win share lost. Paired t 95% intervals over the "
    "games; Holm: still significant after Holm's adjustment over every row and both figures, points and "
    "wins. Games changed: the games in which any seat's total differs. Avoided a game: "
    "turns the seat could play the card and played something else.",
]


def restricted_report(
    rules: Any,
    *,
    games: int,
    seed: int,
    agents_text: str = "heuristic",
    engine: str = "auto",
    cards: Sequence[str] | None = None,
    actions: bool = True,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Every card's (or ``cards``') worth, and every optional action's, ranked."""
    designs = list(rules.cards)
    keys = {c.key.upper(): c for c in designs}
    if cards:
        unknown = [k for k in cards if k.upper() not in keys]
        if unknown:
            raise RulesError(
                f"--card {', '.join(unknown)}: no such card in this deck; its cards are {', '.join(keys)}"
            )
        designs = [keys[k.upper()] for k in cards]
    players = rules.players
    seeds = [seed + i for i in range(games)]
    seats = [i % players for i in range(games)]
    base = play_restricted(rules, seeds, [-1] * games, None, None, engine=engine)
    if progress:
        progress(1)
    restrictions = [("card", c) for c in designs] + [("action", c) for c in designs if actions and c.optional]

    def play(restriction: tuple[str, Any]) -> Played:
        kind, card = restriction
        return play_restricted(
            rules,
            seeds,
            seats,
            card.key if kind == "card" else None,
            card.key if kind == "action" else None,
            engine=engine,
        )

    native_batch = engine == "auto" and _native_restricted(rules) is not None
    # The native batches release the interpreter lock: one thread a core plays them side by side.
    threads = (os.cpu_count() or 1) if native_batch else 1
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="cardroom-restrict") as pool:
        played = []
        for found in pool.map(play, restrictions):
            played.append(found)
            if progress:
                progress(1)
    rows = []
    for (kind, card), found in zip(restrictions, played, strict=True):
        key = card.key
        mine = [found.totals[i][seats[i]] for i in range(games)]
        free = [base.totals[i][seats[i]] for i in range(games)]
        won = [_share(base.winners[i], seats[i]) for i in range(games)]
        lost = [_share(found.winners[i], seats[i]) for i in range(games)]
        penalty = paired_difference(mine, free)
        win = paired_difference(won, lost)
        margin = paired_difference(
            [_margin(found.totals[i], seats[i]) for i in range(games)],
            [_margin(base.totals[i], seats[i]) for i in range(games)],
        )
        changed = sum(found.totals[i] != base.totals[i] for i in range(games))
        used = sum(found.avoided) + sum(found.forced) if kind == "card" else sum(found.declined)
        if kind == "card":
            never = "never playable for the restricted seat" if used == 0 else ""
        else:
            never = (
                "the heuristic never carries it out (declining it changes no game)"
                if changed == 0 and used
                else "it never came up"
                if used == 0
                else ""
            )
        rows.append(
            {
                "card": key if kind == "card" else f"{key} action",
                "design": card.name or key,
                "restriction": "never played" if kind == "card" else "optional action never carried out",
                "penalty": penalty.to_dict(),
                "margin": margin.to_dict(),
                "win": win.to_dict(),
                "changed": changed,
                "avoided": sum(found.avoided) / games,
                "forced": sum(found.forced) / games,
                "declined": sum(found.declined) / games,
                "flag": never,
                "significant": margin.significant or win.significant,
            }
        )
    adjusted = holm(
        [r[f]["p"] if r[f]["p"] is not None else math.nan for r in rows for f in ("margin", "win")]
    )
    for i, row in enumerate(rows):
        row["holm"] = any(p < 0.05 for p in adjusted[2 * i : 2 * i + 2] if not math.isnan(p))
        # the worth in points alone (the verdict speaks of it; "holm" may hold by the win rate)
        row["margin_holm"] = not math.isnan(adjusted[2 * i]) and adjusted[2 * i] < 0.05
    rows.sort(key=lambda r: -(r["margin"]["value"] or 0.0))
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    table = Table(
        "ranking",
        f"Each card's worth to its player, ranked ({games} paired games each)",
        [
            Column("rank", "Rank"),
            Column("card", "Card"),
            Column("design", "Design", terminal=False),
            Column("restriction", "Restriction", terminal=False),
            Column("margin", "Worth, points a game"),
            Column("penalty", "Worth, own penalty a game", terminal=False),
            Column("win", "Worth, win share", 3),
            Column("changed", "Games changed"),
            Column("avoided", "Avoided a game", 2, terminal=False),
            Column("forced", "Forced a game", 2, terminal=False),
            Column("declined", "Declined a game", 2, terminal=False),
            Column("flag", "Note", terminal=False),
            Column("holm", "Holm"),
        ],
        rows,
        note="Worth: restricted minus free on the same seeds (positive: the card helps its player)."
        + "".join(f" {r['card']}: {r['flag']}." for r in rows if r["flag"]),
        flag="holm",
    )
    plot = Plot(
        "ranking",
        "Each card's worth in points a game (95% paired intervals)",
        "bar",
        {
            "labels": [r["card"].replace(" action", "*") for r in rows],
            "values": [r["margin"]["value"] for r in rows],
            "low": [r["margin"]["low"] for r in rows],
            "high": [r["margin"]["high"] for r in rows],
            "reference": 0.0,
        },
        xlabel="card (* its optional action)",
        ylabel="points a game",
    )
    deck = rules.deck_record()
    title = rules.spec.title
    facts = [
        ("game", title),
        ("deck", deck_words(deck)),
        (
            "rules",
            ", ".join(f"{k}={v}" for k, v in rules.to_dict().items() if k not in ("deck", "deck_files")),
        ),
        ("agents", f"{agents_text} in every seat; the restricted seat: {agents_text} less the card"),
        ("games", f"{games} a card, seeds {seed}..{seed + games - 1}, and {games} unrestricted"),
    ]
    section = Section(
        "restricted",
        "Restricted play",
        _ABOUT,
        [table],
        [plot],
        {"ranking": [f"{r['card']} {r['restriction']}" for r in rows]},
    )
    verdict = restrict_verdict(rows, "points", players)
    return Report(f"{title}: restricted play, {deck.get('name')}", facts, [], [section], verdict)
