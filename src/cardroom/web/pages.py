"""The web table's pages made on the server: the "no such page" page (status 404) and the rules
page of each game, from the rule text the game ships (``cardroom/games/<game>/rules.md``, the
text of ``docs/rules-<game>.md``).

Both are plain HTML around the lobby's style sheet, with no script: they work wherever the
lobby does.
"""

from __future__ import annotations

import html
import re
from functools import cache
from importlib import resources

from markdown_it import MarkdownIt

from cardroom import games

__all__ = ["not_found_page", "rules_page", "rules_html", "has_rules"]

_HEAD = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title}</title>
  <link rel="stylesheet" href="/static/style.css">
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
</head>
<body class="{page}">
"""


def _page(title: str, page: str, body: str) -> str:
    return _HEAD.format(title=html.escape(title), page=page) + body + "\n</body>\n</html>\n"


def not_found_page(message: str) -> str:
    """The page answered with status 404: what was not found, and the way back to the lobby."""
    body = (
        '<main class="not-found panel" data-testid="not-found">\n'
        '  <h1>Nothing here</h1>\n'
        f'  <p data-testid="not-found-text">{html.escape(message)}</p>\n'
        '  <p><a class="button primary" href="/" data-testid="lobby-link">Go to the lobby</a></p>\n'
        '</main>'
    )
    return _page("Not found · Cardroom", "not-found-page", body)


def has_rules(game: str) -> bool:
    """Whether ``game`` is registered and ships its rules text."""
    return game in games.names() and _rules_text(game) is not None


@cache
def _rules_text(game: str) -> str | None:
    """The rules text a registered game ships in the package of its rules class (``rules.md``
    beside ``cardroom/games/baha/rules.py``), or None: a game from another package may ship one."""
    package = games.get(game).rules.__module__.rpartition(".")[0]
    if not package:  # rules defined in a top-level module: no package to ship a text in
        return None
    try:
        where = resources.files(package).joinpath("rules.md")
    except ModuleNotFoundError:
        return None
    return where.read_text(encoding="utf-8") if where.is_file() else None


_SLUG = re.compile(r"[^a-z0-9 -]")


def _slug(text: str) -> str:
    """A heading's anchor as GitHub makes it (``The draw pile`` -> ``the-draw-pile``), so the
    text's own links between its sections work on the page too."""
    return _SLUG.sub("", text.lower()).replace(" ", "-")


@cache
def rules_html(game: str) -> str:
    """The rules of ``game`` as HTML (raw HTML in the text is not passed through)."""
    text = _rules_text(game)
    if text is None:
        raise KeyError(game)
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            inline = tokens[i + 1]
            token.attrSet("id", _slug(inline.content))
        elif token.type == "inline" and token.children:
            # Links to the project's other documents lead nowhere on the web table: the words
            # stay, the link goes. Anchors within the page and web addresses stay.
            dropped: list[bool] = []
            for child in token.children:
                if child.type == "link_open":
                    href = str(child.attrGet("href") or "")
                    dropped.append(not href.startswith(("#", "https://", "http://")))
                    if dropped[-1]:
                        child.type, child.tag, child.attrs, child.content = "text", "", {}, ""
                elif child.type == "link_close" and dropped and dropped.pop():
                    child.type, child.tag, child.content = "text", "", ""
    rendered: str = md.renderer.render(tokens, md.options, {})
    return rendered


def rules_page(game: str) -> str:
    """The page of ``game``'s rules, with the way back to the lobby (and to a table)."""
    spec = games.get(game)
    title = f"{spec.title} rules"
    body = (
        '<header class="topbar">\n'
        '  <a class="brand" href="/" aria-label="Cardroom lobby">Cardroom</a>\n'
        f'  <span class="table-title">{html.escape(title)}</span>\n'
        '  <a href="/" data-testid="lobby-link">Back to the lobby</a>\n'
        '</header>\n'
        f'<main class="rules panel" data-testid="rules-text" data-game="{html.escape(game)}">\n'
        f'{rules_html(game)}</main>'
    )
    return _page(f"{title} · Cardroom", "rules-page", body)
