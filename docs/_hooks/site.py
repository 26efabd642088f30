"""mkdocs hooks for Cardroom's site (mkdocs.yml): the pages kept outside docs/ join the site, and
links written between the repository's files (as GitHub shows them) become links between pages.

- ``benchmarks/README.md`` (beside the scripts it describes) is the page ``benchmarks.md``.
- A line that is only a link whose text begins "Read in the README:" (on GitHub, a link to a
  README section) is, in the site, that section itself: the README stays the one text of the
  quick start, and the guides show its sections.
- A relative link is read from where its page lives in the repository: ``../benchmarks/README.md``
  in docs/ and ``../docs/research.md`` in benchmarks/ lead to those pages; a link to a file that
  is not a page (a deck, a script) becomes its text and the file's path, since the site does not
  hold the sources.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = {"benchmarks/README.md": "benchmarks.md"}
"""Repository path -> its page in the site, for the pages kept outside docs/."""

LINK = re.compile(r"(?P<bang>!?)\[(?P<text>[^\]\n]*)\]\((?P<target>[^)\s]+)\)")
INCLUDE = re.compile(r"^\[Read in the README: [^\]]*\]\((?P<path>[^)#\s]+)#(?P<anchor>[^)\s]+)\)$", re.M)
HEADING = re.compile(r"^(?P<hashes>#{1,6}) (?P<title>.+)$", re.M)


def on_files(files: Files, config: Any) -> Files:
    for source, page in OUTSIDE.items():
        files.append(File.generated(config, page, abs_src_path=str(ROOT / source)))
    return files


def _repo_path(page_uri: str) -> str:
    """Where a page's source lives in the repository."""
    for source, page in OUTSIDE.items():
        if page == page_uri:
            return source
    return f"docs/{page_uri}"


def _slug(title: str) -> str:
    """A heading's anchor as GitHub makes it."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def _section(path: Path, anchor: str) -> str:
    """The section of a Markdown file under the heading whose anchor is ``anchor``, its heading
    included, up to the next heading of its level or above."""
    text = path.read_text(encoding="utf-8")
    headings = list(HEADING.finditer(text))
    for k, heading in enumerate(headings):
        if _slug(heading["title"]) == anchor:
            level = len(heading["hashes"])
            end = next((h.start() for h in headings[k + 1:] if len(h["hashes"]) <= level), len(text))
            return text[heading.start():end].rstrip() + "\n"
    raise ValueError(f"{path} has no section #{anchor}")


def _relink(markdown: str, here: str, site_here: str, files: Files) -> str:
    """Relative links and images written from the repository folder ``here``, made relative to
    the page at ``site_here`` in the site."""

    def relink(match: re.Match[str]) -> str:
        target = match["target"]
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
            return match[0]
        path, _, anchor = target.partition("#")
        repo = posixpath.normpath(posixpath.join(here, path))
        if repo.startswith("docs/"):
            site = repo.removeprefix("docs/")
        elif repo in OUTSIDE:
            site = OUTSIDE[repo]
        else:
            return f"{match['text']} (`{repo}`)"
        if files.get_file_from_path(site) is None:
            return match[0]  # left for mkdocs to report
        relative = posixpath.relpath(site, site_here or ".")
        return f"{match['bang']}[{match['text']}]({relative}{'#' + anchor if anchor else ''})"

    return LINK.sub(relink, markdown)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    here = posixpath.dirname(_repo_path(page.file.src_uri))
    site_here = posixpath.dirname(page.file.src_uri)
    parts: list[str] = []
    last = 0
    for include in INCLUDE.finditer(markdown):
        parts.append(_relink(markdown[last:include.start()], here, site_here, files))
        source = posixpath.normpath(posixpath.join(here, include["path"]))
        section = _section(ROOT / source, include["anchor"])
        parts.append(_relink(section, posixpath.dirname(source), site_here, files))
        last = include.end()
    parts.append(_relink(markdown[last:], here, site_here, files))
    return "".join(parts)
