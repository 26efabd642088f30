"""Every field of a Baha state, declared once: the table ``state_base.py`` is generated from.

Each field's native form makes the native core's side: the members of ``baha::Game``, its getter
and its load from the reference position (``native/cardroom/generated/baha_fields.hpp``), and
its stub in ``_core.pyi``. After editing it, run ``python -m cardroom.games.fieldgen``
(``tests/test_state_fields.py`` fails while a generated file is stale) and rebuild the native
core. See :mod:`cardroom.games.fieldgen` for the columns.
"""

from __future__ import annotations

from cardroom.games.fieldgen import Field, Native, NativeTable, StateTable

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
    native=NativeTable(game="baha::Game", core="BahaCore", header="baha_fields.hpp", macro="CARDROOM_BAHA"),
    fields=(
        Field("rules", "Rules", init="rules", native="face"),
        Field("seed", "int", init="seed", native="face"),
        Field("n", "int", init="rules.players", native="face"),
        Field("hand_no", "int", native="int64"),
        Field("dealer", "int", native="int"),
        Field("phase", "Phase", native=Native("Code", "Phase {name} = PASS;", "int", getter="phase_code",
                                              values="PHASES", layout=0)),
        Field("turn", "int | None", native="seat"),
        Field("hands", "list[CardMask]", "list", native="masks"),
        Field("taken", "list[CardMask]", "list", native="masks",
              note="every card each seat took this hand, face down ones too"),
        Field("face_down", "list[CardMask]", "list", native="masks",
              note="the part of ``taken`` nobody else has seen (B4, B10)"),
        Field("picks", "list[CardMask]", "list", native="masks",
              note="cards chosen for the pass, not yet given"),
        Field("passed", "list[CardMask]", "list", native="masks",
              note="cards each seat gave in this hand's pass"),
        Field("received", "list[CardMask]", "list", native="masks"),
        Field("leftover", "CardMask", native="mask",
              note="face-down cards waiting for the first trick's taker"),
        Field("draw_pile", "list[Card]", "list", note="top first",
              native=Native("DrawPile", "uint8_t pile[DECK] = {{0}}; /* top at pile[pile_head] */\n"
                            "int pile_head = 0;\nint pile_len = 0;", "list[int]", whole=True)),
        Field("trick", "list[Card]", "list",
              native=Native("TrickCards", "uint8_t trick[MAX_PLAYERS] = {{0}};\nint trick_len = 0;",
                            "list[int]", whole=True)),
        Field("leader", "int", native="int"),
        Field("tricks_done", "int", native="int"),
        Field("pass_offset", "int", native="int"),
        Field("played", "CardMask", native="mask"),
        Field("voids", "list[int]", "list", native="ints",
              note="colours (bits 0..3) each seat is known to lack now"),
        Field("totals", "list[int]", "list", native="int64s"),
        Field("winner", "int | None", native="seat"),
        Field("log", "list[Event]", "list", native="list",
              note="events are shared: never changed once logged"),
        Field("last_trick", "dict[str, Any] | None",
              native=Native("LastTrick", "bool has_last = false;\nint last_leader = 0;\n"
                            "int last_winner = 0;\nuint8_t last_cards[MAX_PLAYERS] = {{0}};",
                            "dict[str, Any] | None", whole=True)),
        Field("hand_start", "int", native="index", note="index in ``log`` of this hand's ``hand`` event"),
        Field("origin", "dict[str, Any] | None", native="face",
              note="how a hand-made game began, for records"),
        Field("history", "list[tuple[int, Action]]", "list", native="list",
              note="(seat, action) of every action, for records"),
        Field("det_cache", "dict[int, tuple[int, Any]]", "{}", pickle="{}",
              note="determinize's knowledge per seat: a cache, never copied"),
        Field("shown_cache", "tuple[int, int, tuple[int, ...]] | None", "None",
              note="views': (hand, tricks done, horns shown per seat)"),
    ),
)
