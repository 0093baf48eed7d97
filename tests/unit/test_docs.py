"""The manual stays navigable (issue 39): README.md is a page, not the manual, and every relative
link of README.md and docs/*.md leads to a file that exists and, after a ``#``, to one of its
headings, as GitHub names them."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+).+?\1", re.DOTALL)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
# Anything with a scheme (https:, mailto:) leaves the repository: not ours to check.
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def prose(text: str) -> str:
    """The text a reader sees as prose: a link written inside code is not a link."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def anchors(text: str) -> set[str]:
    """GitHub's heading anchors: the heading's text (a link's words, a code span's letters),
    lowercased, punctuation dropped, spaces to hyphens; a repeated one gets -1, -2, …"""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", text)):
        words = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
        slug = re.sub(r"[^\w\- ]", "", words.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def broken_links(page: Path) -> list[str]:
    """Each relative link of ``page`` whose file or heading is missing, as written."""
    broken = []
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if EXTERNAL.match(target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        missing = not linked.exists() or (
            bool(anchor) and anchor not in anchors(linked.read_text(encoding="utf-8"))
        )
        if missing:
            broken.append(target)
    return broken


def test_readme_is_at_most_200_lines() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 200, f"README.md has {lines} lines: move a section to docs/ and link it"


def test_every_relative_link_leads_to_a_file_and_a_heading() -> None:
    broken = {page.name: broken_links(page) for page in PAGES}
    assert {name: links for name, links in broken.items() if links} == {}


def test_readme_links_every_docs_page() -> None:
    linked = {
        (ROOT / target.partition("#")[0]).resolve()
        for target in LINK.findall(prose(README.read_text(encoding="utf-8")))
    }
    assert [page.name for page in PAGES[1:] if page not in linked] == []


def test_a_missing_file_or_heading_is_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## 今日の盤面パズル (the daily puzzle)\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\n## Cost\n\n### Cost\n\n## `make run`, then\n\n"
        "[ok](other.md) [ok](other.md#今日の盤面パズル-the-daily-puzzle) [ok](#cost-1)\n"
        "[ok](#make-run-then) [ok](https://example.com/none.md) `[code](none.md)`\n"
        "```\n[fenced](none.md)\n```\n"
        "[gone](none.md) [no heading](other.md#cost) [no heading](#cost-2)\n"
    )
    assert broken_links(page) == ["none.md", "other.md#cost", "#cost-2"]


def layout_paths(page: Path) -> list[str]:
    """The first column of the table under a page's "## Layout" heading."""
    section = page.read_text(encoding="utf-8").split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| (`[^|]+`) \|", section, re.MULTILINE)


def test_readme_layout_names_what_architecture_details_in_the_same_order() -> None:
    short = layout_paths(README)
    assert short, "README.md has no Layout table"
    assert short == layout_paths(ROOT / "docs" / "architecture.md")


def test_every_path_the_layout_names_exists() -> None:
    missing = []
    for cell in layout_paths(README):
        first, *siblings = re.findall(r"`([^`]+)`", cell)
        folder = Path(first).parent
        for path in [first, *(str(folder / name) for name in siblings)]:
            if not (ROOT / path).exists():
                missing.append(path)
    assert missing == []
