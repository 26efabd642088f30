"""A griffe extension for the API reference (mkdocs.yml): Cardroom's docstrings, written for
``help()`` and doctest, read as Markdown.

- A doctest (``>>>`` lines and their output, up to a blank line) becomes a ``pycon`` code block.
- A Sphinx role (``:class:`~cardroom.sim.runner.Backend```) becomes code: the short name where
  the role asks for it (``~``), else the name as written.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):`(?P<tilde>~?)(?P<name>[^`]+)`")


def _role(match: re.Match[str]) -> str:
    name = match["name"]
    return f"``{name.rsplit('.', 1)[-1] if match['tilde'] else name}``"


def _fence_doctests(text: str) -> str:
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            out += [f"{indent}```pycon", *block, f"{indent}```"]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


class Docstrings(Extension):
    def on_instance(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = _fence_doctests(ROLE.sub(_role, obj.docstring.value))
