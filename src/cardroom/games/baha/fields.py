"""Every field of a Baha state, declared once: the table ``state_base.py`` is generated from.

After editing it, run ``python -m cardroom.games.fieldgen`` (``tests/test_state_fields.py``
fails while the generated base is stale). See :mod:`cardroom.games.fieldgen` for the columns.
"""

from __future__ import annotations

from cardroom.games.fieldgen import Field, StateTable

__all__ = ["TABLE"]

TABLE = StateTable(
    base="BahaFields",
    doc="The fields of a Baha state (:class:`~cardroom.games.baha.state.BahaState`'s base).",
    imports=(
        "from typing import Any, Final",
        "",
        "from cardroom.cards import Card, CardMask",
        "from cardroom.engine import Action, Event",
        "from cardroom.games.baha.actions import Phase",
        "from cardroom.games.baha.rules import Rules",
    ),
    refusal="a Baha game is made by Rules(...).new_game(seed) or BahaState.start(...)",
    fields=(
        Field("rules", "Rules", init="rules"),
        Field("seed", "int", init="seed"),
        Field("n", "int", init="rules.players"),
        Field("hand_no", "int"),
        Field("dealer", "int"),
        Field("phase", "Phase"),
        Field("turn", "int | None"),
        Field("hands", "list[CardMask]", "list"),
        Field("taken", "list[CardMask]", "list",
              note="every card each seat took this hand, face down ones too"),
        Field("face_down", "list[CardMask]", "list",
              note="the part of ``taken`` nobody else has seen (B4, B10)"),
        Field("pass_offset", "int"),
        Field("picks", "list[CardMask]", "list", note="cards chosen for the pass, not yet given"),
        Field("passed", "list[CardMask]", "list", note="cards each seat gave in this hand's pass"),
        Field("received", "list[CardMask]", "list"),
        Field("leftover", "CardMask", note="face-down cards waiting for the first trick's taker"),
        Field("draw_pile", "list[Card]", "list", note="top first"),
        Field("trick", "list[Card]", "list"),
        Field("leader", "int"),
        Field("tricks_done", "int"),
        Field("played", "CardMask"),
        Field("voids", "list[int]", "list", note="colours (bits 0..3) each seat is known to lack now"),
        Field("totals", "list[int]", "list"),
        Field("winner", "int | None"),
        Field("log", "list[Event]", "list", note="events are shared: never changed once logged"),
        Field("last_trick", "dict[str, Any] | None"),
        Field("hand_start", "int", note="index in ``log`` of this hand's ``hand`` event"),
        Field("origin", "dict[str, Any] | None", note="how a hand-made game began, for records"),
        Field("history", "list[tuple[int, Action]]", "list",
              note="(seat, action) of every action, for records"),
        Field("det_cache", "dict[int, tuple[int, Any]]", "{}", pickle="{}",
              note="determinize's knowledge per seat: a cache, never copied"),
        Field("shown_cache", "tuple[int, int, tuple[int, ...]] | None", "None",
              note="views': (hand, tricks done, horns shown per seat)"),
    ),
)
