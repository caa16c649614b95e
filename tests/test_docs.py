"""The documentation pages keep their promises: one template, true defaults, no outside files.

The site itself is built (strictly, so a broken link fails) by ``tox -e docs``; these checks are
the ones a link checker cannot make: that every game and agent page has the same sections, that
each options table says what the code's attrs fields say, and that the pages cite only what the
repository holds.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from purestate.core import registry
from purestate.core.spec import option_docs

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
PAGES = sorted((DOCS / "games").glob("*.md")) + sorted((DOCS / "agents").glob("*.md"))

# the second-level sections of a game or agent page, in this order, and no others
TEMPLATE = [
    "Options",
    "Rules as implemented",
    "Symmetries",
    "Invariants",
    "Speed",
    "What the student project got wrong",
    "References",
]
# what every page says; the other sections of the template are left out where they do not apply
# (a page about bots no student project had has nothing it got wrong)
REQUIRED = ["Options", "Rules as implemented", "Invariants", "Speed", "References"]


def sections(text: str) -> dict[str, str]:
    """The page's second-level sections: heading to body (code blocks are not headings)."""
    found: dict[str, str] = {}
    heading = ""
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            heading = line[3:].strip()
            found[heading] = ""
        elif heading:
            found[heading] += line + "\n"
    return found


def cells(row: str) -> list[str]:
    """A markdown table row's cells, stripped of spaces and backticks."""
    return [c.strip().strip("`") for c in row.strip().strip("|").split("|")]


def documented_options(body: str) -> dict[str, dict[str, str]]:
    """Registry name to {option: default}, read from an Options section.

    A ``### `name` `` heading (several names for aliases) introduces that name's options: a table
    whose header is ``option | default | ...``, or the words "No options". A table whose header
    names registry names (``option | `qlearning` | `sarsa` | ...``) gives one column per name;
    ``–`` marks an option that name does not have.
    """
    names: list[str] = []
    found: dict[str, dict[str, str]] = {}
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("### "):
            names = re.findall(r"`([a-z_0-9]+)`", line)
            for n in names:
                found.setdefault(n, {})
        elif line.startswith("|") and cells(line)[0] == "option":
            header = cells(line)
            columns = names if header[1] == "default" else header[1:]
            per_column = header[1] != "default"
            i += 2  # the header and the |---| line
            while i < len(lines) and lines[i].startswith("|"):
                row = cells(lines[i])
                for j, n in enumerate(columns if per_column else names):
                    value = row[1 + j] if per_column else row[1]
                    if value not in ("–", "-"):
                        found.setdefault(n, {})[row[0]] = value
                i += 1
            continue
        i += 1
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_game_and_agent_page_follows_the_template(page: Path) -> None:
    found = list(sections(page.read_text(encoding="utf-8")))
    # named as the template names them, in its order, each once
    assert found == [name for name in TEMPLATE if name in found], found
    assert [name for name in REQUIRED if name not in found] == []


def test_the_template_check_refuses_what_it_should() -> None:
    def follows(*names: str) -> bool:
        found = list(sections("".join(f"## {n}\n\ntext\n" for n in names)))
        return found == [n for n in TEMPLATE if n in found] and set(REQUIRED) <= set(found)

    assert follows(*TEMPLATE)
    assert follows(*(n for n in TEMPLATE if n != "What the student project got wrong"))
    assert not follows(*TEMPLATE[1:])  # Options left out
    assert not follows(TEMPLATE[1], TEMPLATE[0], *TEMPLATE[2:])  # out of order
    assert not follows(*TEMPLATE, "Notes")  # a section the template does not name


@pytest.mark.parametrize("page", PAGES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_speed_points_at_a_benchmark_script_that_exists(page: Path) -> None:
    speed = sections(page.read_text(encoding="utf-8")).get("Speed", "")
    scripts = re.findall(r"benchmarks/[a-z_]+\.py", speed)
    assert scripts, f"{page.name}: the Speed section names no benchmark script"
    for script in scripts:
        assert (ROOT / script).is_file(), f"{page.name}: {script} does not exist"


def test_the_options_tables_give_the_codes_defaults() -> None:
    documented: dict[str, dict[str, str]] = {}
    for page in PAGES:
        body = sections(page.read_text(encoding="utf-8")).get("Options", "")
        for name, options in documented_options(body).items():
            assert name not in documented, f"{name} has options on two pages"
            documented[name] = options
    for name in registry.games() + registry.agents():
        cls = registry.game_class(name) if name in registry.games() else registry.agent_class(name)
        expected = {o["name"]: o["default"] for o in option_docs(cls)}
        assert name in documented, f"no page has an options table for {name}"
        assert documented[name] == expected, name


def test_the_docs_cite_no_file_outside_the_repository() -> None:
    # the machine's folder is spelt with a class ("wor[k]") so this file does not hold the path
    outside = re.compile(
        r"DESIGN\.md|shared/|(reference|seeds)/[a-z-]+\.md|[a-z]+\.md §|/wor[k]/|\.\./\.\./\.\."
    )
    for page in [*sorted(DOCS.rglob("*.md")), ROOT / "README.md"]:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            assert not outside.search(line), f"{page.relative_to(ROOT)}:{n}: {line}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_game_and_agent_pages_carry_no_dated_figures(page: Path) -> None:
    # figures a benchmark measures belong to its output, not to prose that ages
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b|measured (on|in) ", text), page.name
