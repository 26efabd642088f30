"""The studio's deck work, done in the deck workers (:class:`cardroom.web.bounded.WorkerPool`,
processes of their own): a form checked, a version's form and cards, a deck file opened, a
version saved. Each answers plain values (JSON as bytes), as a worker sends them back."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from cardroom import games
from cardroom.games.contracts import DeckEditing
from cardroom.web.protocol import MAX_DECK_BYTES
from cardroom.web.studio_forms import DeckForm, SaveBody

__all__ = ["check_work", "view_work", "open_work", "save_work", "as_json", "joined"]


def _editing_of(game: str) -> DeckEditing:
    """The deck editing of ``game``, from the registry (a worker reaches games by name)."""
    return games.get(game).load("deck_editing")


def as_json(value: Any) -> bytes:
    """``value`` as the server writes JSON answers."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


M = TypeVar("M", bound=BaseModel)


def _read(model: type[M], body: bytes) -> M | list[dict[str, Any]]:
    """``body`` read as JSON into ``model`` as FastAPI reads a request's body; else the errors
    FastAPI would give (made small to send back: :func:`_small`)."""
    try:
        value = json.loads(body)
    except ValueError as err:
        return [{"type": "json_invalid", "loc": (getattr(err, "pos", 0),), "msg": "JSON decode error"}]
    try:
        return model.model_validate(value)
    except ValidationError as err:
        return [_small(dict(e)) for e in err.errors(include_url=False)]


_SCALARS = (str, int, float, bool, type(None))


def _small(error: dict[str, Any]) -> dict[str, Any]:
    """A refusal made small to send back: its input kept only where it is one short value (the
    words say what was sent), its context as plain values."""
    value = error.pop("input", None)
    if isinstance(value, _SCALARS):
        error["input"] = value[:40] if isinstance(value, str) else value
    if "ctx" in error:
        error["ctx"] = {k: v if isinstance(v, _SCALARS) else str(v) for k, v in error["ctx"].items()}
    return error


def _checked(editing: DeckEditing, form: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The deck checker's word on a form (the answer of ``POST /api/studio/check``), and the
    deck file it makes (``None`` when refused)."""
    try:
        text = editing.checked(form)
    except editing.error as err:
        return {"ok": False, "problems": editing.where_problems(err), "cards": None}, None
    if len(text.encode()) > MAX_DECK_BYTES:
        return {"ok": False, "cards": None, "problems": [
            {"card": None, "field": None, "step": None,
             "message": f"the deck file would be {len(text.encode()) // 1024} KiB; at most "
                        f"{MAX_DECK_BYTES // 1024} KiB"}]}, None
    deck = editing.parse(text, "the deck")
    return {"ok": True, "problems": [], "cards": deck.cards, "digest": deck.digest, "size": deck.size}, text


def check_work(game: str, body: bytes) -> tuple[list[dict[str, Any]] | None, bytes]:
    """A :class:`DeckForm` sent as JSON, checked: the model's errors (``None``: it is a form),
    and the checker's answer as JSON."""
    form = _read(DeckForm, body)
    if isinstance(form, list):
        return form, b""
    return None, as_json(_checked(_editing_of(game), form.model_dump())[0])


def _view(editing: DeckEditing, text: str) -> bytes:
    form = editing.form_of(text, "the deck")
    return as_json({"form": form, "cards": editing.parse(text, "the deck").cards})


def view_work(game: str, text: str) -> bytes:
    """A version's form and cards, as JSON (an object of those two members)."""
    return _view(_editing_of(game), text)


def open_work(game: str, text: str, where: str) -> tuple[str, Any]:
    """A deck file to open: ``("problems", (words, problems))`` when the checker refuses it,
    else ``("ok", (name, digest, view))``."""
    editing = _editing_of(game)
    try:
        editing.form_of(text, where)
    except editing.error as err:
        return "problems", (str(err), editing.where_problems(err))
    deck = editing.parse(text, where)
    return "ok", (deck.name, deck.digest, _view(editing, text))


def save_work(game: str, body: bytes, before: str) -> tuple[str, Any]:
    """A :class:`SaveBody` sent as JSON, made a version after the deck file ``before``:
    ``("invalid", errors)``, ``("problems", (base, words, problems))``, or ``("ok", (base, text,
    name, digest, changes, view))``."""
    save = _read(SaveBody, body)
    if isinstance(save, list):
        return "invalid", save
    editing = _editing_of(game)
    answer, text = _checked(editing, save.form.model_dump())
    if text is None:
        words = "; ".join(p["message"] for p in answer["problems"])
        return "problems", (save.base, words, answer["problems"])
    changes = editing.deck_diff(editing.form_of(before, "the deck"), editing.form_of(text, "the deck"))
    deck = editing.parse(text, "the deck")
    return "ok", (save.base, text, deck.name, deck.digest, changes, _view(editing, text))


def joined(head: dict[str, Any], members: bytes) -> bytes:
    """The JSON object ``head`` with the members of the JSON object ``members`` after its own."""
    return as_json(head)[:-1] + b"," + members[1:]
