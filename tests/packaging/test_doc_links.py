"""Every relative Markdown link in the repository's Markdown files leads somewhere: the file
exists and, when the link names an anchor, the file has a heading with that GitHub-style
anchor. (The README was split into README.md and docs/*.md; a link left pointing at a
section that moved, or a heading renamed under a link, would otherwise rot unseen.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Directories holding no documentation of ours (dependencies, build output, caches).
SKIP = {".git", "node_modules", "dist", "build", "var"}

#: An inline Markdown link or image: ``[text](target)`` or ``[text](target "title")``.
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_files() -> list[Path]:
    """The repository's Markdown files, outside dependencies and virtualenvs."""
    return sorted(path for path in ROOT.rglob("*.md")
                  if not any(part in SKIP or part.startswith(".venv")
                             for part in path.relative_to(ROOT).parts))


def _outside_fences(text: str) -> list[str]:
    """The lines of ``text`` that are not in a fenced code block."""
    lines: list[str] = []
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: its text lowercased, inline markup and punctuation
    other than ``-`` and ``_`` dropped, spaces made ``-``."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file (a repeated heading gets ``-1``, ``-2``...)."""
    found: set[str] = set()
    counts: dict[str, int] = {}
    for line in _outside_fences(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if match is None:
            continue
        anchor = github_anchor(match.group(2))
        if anchor in counts:
            counts[anchor] += 1
            found.add(f"{anchor}-{counts[anchor]}")
        else:
            counts[anchor] = 0
            found.add(anchor)
    return found


def broken_links(files: list[Path], root: Path = ROOT) -> list[str]:
    """``file:line: target (why)`` for every relative link that leads nowhere."""
    cache: dict[Path, set[str]] = {}
    broken: list[str] = []
    for path in files:
        fenced = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            text = re.sub(r"`[^`]*`", "", line)  # code spans hold no links
            for target in LINK.findall(text):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                    continue  # http:, https:, mailto: -- not ours to check offline
                file_part, _, anchor = target.partition("#")
                dest = (path.parent / file_part).resolve() if file_part else path
                where = f"{path.relative_to(root)}:{number}: {target}"
                if not dest.exists():
                    broken.append(f"{where} (no such file)")
                    continue
                if anchor and dest.suffix == ".md":
                    if dest not in cache:
                        cache[dest] = anchors(dest)
                    if anchor not in cache[dest]:
                        broken.append(f"{where} (no heading with that anchor)")
    return broken


def test_github_anchors_are_computed_as_github_does() -> None:
    assert github_anchor("Hosting on the internet: TLS") == "hosting-on-the-internet-tls"
    assert github_anchor("What the engine enforces today") == "what-the-engine-enforces-today"
    assert github_anchor("Why a card can't be cast") == "why-a-card-cant-be-cast"
    assert github_anchor("manawire bots --join") == "manawire-bots---join"
    assert github_anchor("`manawire play`") == "manawire-play"


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    """The checker itself: a missing file and a missing anchor are both reported."""
    (tmp_path / "other.md").write_text("# Other\n\n## Its part\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("# Probe\n\n## Real heading\n\n[ok](#real-heading) [gone](#no-such)"
                    " [missing](nowhere.md) `[code](#not-a-link)`\n[there](other.md#its-part)"
                    " [not there](other.md#its-whole)\n", encoding="utf-8")
    found = broken_links([page], root=tmp_path)
    assert found == ["page.md:5: #no-such (no heading with that anchor)",
                     "page.md:5: nowhere.md (no such file)",
                     "page.md:6: other.md#its-whole (no heading with that anchor)"], found


def test_every_relative_markdown_link_resolves() -> None:
    files = markdown_files()
    assert ROOT / "README.md" in files
    assert broken_links(files) == []
