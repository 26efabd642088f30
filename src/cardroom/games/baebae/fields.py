"""Every field of a BAEBAE state, declared once: the table ``state_base.py`` is generated from.

Each field's native form makes the native core's side: the members of ``baebae::Game``, its
getter and its load from the reference position (``native/cardroom/generated/baebae_fields.hpp``),
and its stub in ``_core.pyi``. After editing it, run ``python -m cardroom.games.fieldgen``
(``tests/test_state_fields.py`` fails while a generated file is stale) and rebuild the native
core. See :mod:`cardroom.games.fieldgen` for the columns.
"""

from __future__ import annotations

from cardroom.games.fieldgen import Field, Native, NativeTable, StateTable

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
    native=NativeTable(game="baebae::Game", core="BaebaeCore", header="baebae_fields.hpp",
                       macro="CARDROOM_BAEBAE", grouped=False),
    fields=(
        Field("rules", "Rules", init="rules", native="face"),
        Field("seed", "int", init="seed", native="face"),
        Field("n", "int", init="rules.players", native="face"),
        Field("space", "ActionSpace", native="face"),
        Field("round_no", "int", native="int64"),
        Field("dealer", "int", native="int"),
        Field("direction", "int", native=Native("Int", "int {name} = 1;", "int")),
        Field("turn", "int | None", native="seat"),
        Field("phase", "Phase", native=Native("Code", "int {name} = PLAY;", "int", getter="phase_code",
                                              values="PHASES")),
        Field("hands", "list[int]", "list",
              native=Native("Hands", "std::vector<Bits> hands;", "list[int]", whole=True)),
        Field("stock", "list[int]", "list", native="intlist", note="top last (pop() draws)"),
        Field("discard", "list[int]", "list", native="intlist", note="top last"),
        Field("suit", "int", native="int", note="the suit in play"),
        Field("declared", "bool", native="flag",
              note="whether ``suit`` was named (then rank does not match, E4)"),
        Field("round_penalties", "list[int]", "list", native="int64list", note="penalty steps this round"),
        Field("totals", "list[int]", "list", native="int64list"),
        Field("skips", "list[int]", "list", native="int64list", note="turns each seat is still to lose"),
        Field("extra_turn", "bool", native="flag"),
        Field("drawn", "int | None", native="seat", note="the card drawn this turn that may be played"),
        Field("idle_passes", "int",
              native=Native("IdlePasses", "std::vector<uint8_t> idle;\nint idle_count = 0;", "int",
                            whole=True),
              note="seats (a bitmask) that passed with nothing to draw since the last play or draw (E6); a "
              "seat that lost its turn has not passed"),
        Field("turns", "int", native="int64", note="turns this round, for the guard"),
        Field("frames", "list[Frame]", "[f.copy() for f in self.frames]", note="the interpreter's stack",
              native=Native("FrameStack", "Frames frames;", "list[Any]", whole=True)),
        Field("pending", "Decision | None", native=Native("Pending", "Decision pending;", "Any", whole=True)),
        Field("card_declared", "bool", native="flag",
              note="whether the current card's action already named a suit"),
        Field("chosen", "int | None", native="seat",
              note="the player chosen for the current card's action: chosen once"),
        Field("chance", "int", native="int64", note="chance events so far this round (keys the generators)"),
        Field("log", "list[Event]", "list", native="list",
              note="events are shared: never changed once logged"),
        Field("history", "list[tuple[int, Action]]", "list", native="list"),
        Field("round_start", "int", native="index"),
        Field("ranking", "list[dict[str, int]] | None",
              native=Native("Ranking", "", "list[dict[str, int]] | None", core=True, whole=True),
              note="the end's ranking (the native core reads it from the log's last event)"),
        Field("shame", "list[int]", "list", native="intlist"),
        Field("guard_rounds", "int", native="int64"),
        Field("origin", "dict[str, Any] | None", native="face",
              note="how a hand-made game began, for records"),
        Field("legal_cache", "list[Action] | None", "None",
              note="legal actions of this position, once computed"),
        Field("det_cache", "dict[int, tuple[int, Any]]", "{}", pickle="{}",
              note="determinize's knowledge per seat: a cache, never copied (interface.py)"),
    ),
)
