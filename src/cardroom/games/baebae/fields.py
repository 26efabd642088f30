"""Every field of a BAEBAE state, declared once: the table ``state_base.py`` is generated from.

After editing it, run ``python -m cardroom.games.fieldgen`` (``tests/test_state_fields.py``
fails while the generated base is stale). See :mod:`cardroom.games.fieldgen` for the columns.
"""

from __future__ import annotations

from cardroom.games.fieldgen import Field, StateTable

__all__ = ["TABLE"]

TABLE = StateTable(
    base="BaebaeFields",
    doc="The fields of a BAEBAE state (:class:`~cardroom.games.baebae.state.BaebaeState`'s base).",
    imports=(
        "from typing import Any, Final",
        "",
        "from cardroom.engine import Action, Event",
        "from cardroom.games.baebae.actions import ActionSpace",
        "from cardroom.games.baebae.interpreter import Decision, Frame, Phase",
        "from cardroom.games.baebae.rules import Rules",
    ),
    refusal="a BAEBAE game is made by Rules(...).new_game(seed) or BaebaeState.start(...)",
    fields=(
        Field("rules", "Rules", init="rules"),
        Field("seed", "int", init="seed"),
        Field("n", "int", init="rules.players"),
        Field("space", "ActionSpace"),
        Field("round_no", "int"),
        Field("dealer", "int"),
        Field("direction", "int"),
        Field("turn", "int | None"),
        Field("phase", "Phase"),
        Field("hands", "list[int]", "list"),
        Field("stock", "list[int]", "list", note="top last (pop() draws)"),
        Field("discard", "list[int]", "list", note="top last"),
        Field("suit", "int", note="the suit in play"),
        Field("declared", "bool", note="whether ``suit`` was named (then rank does not match, E4)"),
        Field("round_penalties", "list[int]", "list", note="penalty steps this round"),
        Field("totals", "list[int]", "list"),
        Field("skips", "list[int]", "list", note="turns each seat is still to lose"),
        Field("extra_turn", "bool"),
        Field("drawn", "int | None", note="the card drawn this turn that may be played"),
        Field("idle_passes", "int", note="seats (a bitmask) that passed with nothing to draw since the last "
              "play or draw (E6); a seat that lost its turn has not passed"),
        Field("turns", "int", note="turns this round, for the guard"),
        Field("frames", "list[Frame]", "[f.copy() for f in self.frames]", note="the interpreter's stack"),
        Field("pending", "Decision | None"),
        Field("card_declared", "bool", note="whether the current card's action already named a suit"),
        Field("chosen", "int | None", note="the player chosen for the current card's action: chosen once"),
        Field("chance", "int", note="chance events so far this round (keys the generators)"),
        Field("log", "list[Event]", "list", note="events are shared: never changed once logged"),
        Field("history", "list[tuple[int, Action]]", "list"),
        Field("round_start", "int"),
        Field("ranking", "list[dict[str, int]] | None"),
        Field("shame", "list[int]", "list"),
        Field("guard_rounds", "int"),
        Field("origin", "dict[str, Any] | None", note="how a hand-made game began, for records"),
        Field("legal_cache", "list[Action] | None", "None",
              note="legal actions of this position, once computed"),
        Field("det_cache", "dict[int, tuple[int, Any]]", "{}", pickle="{}",
              note="determinize's knowledge per seat: a cache, never copied (interface.py)"),
    ),
)
