"""The README as a newcomer meets it: short, every setting the code reads named, every link and command working.

* README.md has at most 400 lines (issue 38: a user's document; tests, benchmarks and history live elsewhere).
* Every ``NDCG_LAB_*`` name in the code (the app, scripts, deploy, benchmarks and tests; doctest lines aside)
  is named in README.md or in a Markdown page README.md links to.
* Every relative link in README.md and the pages it links to resolves: the file exists and a ``#fragment``
  names a heading of it (GitHub's anchors).
* Every repository path (and ``tests/...py::test_name``) these pages name exists.
* Every link parameter a page declares through :mod:`ui.state` is listed in that page's row of the README's
  table of link parameters (the pages are run through app.py, as a visitor's link would run them).
* Every ``python -m metrics.runfiles`` command it shows runs on the sample files (exit status 0, output
  printed).  ``--spark`` commands are left to tests/metrics/runfiles/test_spark.py; the README's doctest runs
  with the other doctests (pyproject.toml's ``testpaths`` and ``--doctest-glob=README.md``, from the
  repository's root: its examples name the sample files relatively).
"""
from __future__ import annotations

import ast
import doctest
import importlib
import os
import re
import shlex
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT
from ui import state as ui_state

README = ROOT / "README.md"
MAX_LINES = 400

#: Folders never searched for settings (virtual environments, caches, artifacts, data).
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", "test-artifacts", "build", "data",
             ".hypothesis", ".pytest_cache", ".ruff_cache", "docs"}
CODE_SUFFIXES = {".py", ".sh", ".toml", ".conf", ".cfg", ".ini", ".yml", ".yaml", ".js"}
SETTING = re.compile(r"\bNDCG_LAB_[A-Z0-9_]*[A-Z0-9]\b")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def without_code_blocks(markdown: str) -> str:
    """The Markdown with fenced code blocks and inline code spans removed (links inside code are not links)."""
    out, fenced = [], False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            out.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(out)


def anchors(markdown: str) -> set[str]:
    """GitHub's anchors of the headings of a Markdown text: lower case, punctuation dropped (letters, digits,
    ``-``, ``_`` and spaces kept), spaces as ``-``; a repeated heading gets ``-1``, ``-2``, ...

    >>> sorted(anchors("# A: b, c?\\n## The `x` (y; z)\\n## The `x` (y; z)\\n```\\n# not a heading\\n```"))
    ['a-b-c', 'the-x-y-z', 'the-x-y-z-1']
    """
    seen: dict[str, int] = {}
    out = set()
    fenced = False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        m = None if fenced else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        title = m.group(1).replace("`", "").replace("*", "").lower()
        slug = "".join(c for c in title if c in " -_" or unicodedata.category(c)[0] in "LN").replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def relative_links(path: Path) -> list[str]:
    """The relative link targets of a Markdown file (``http(s):``, ``mailto:`` and the like left out)."""
    return [t for t in LINK.findall(without_code_blocks(text(path))) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def linked_pages() -> list[Path]:
    """README.md and every Markdown file it links to."""
    pages = [README]
    for target in relative_links(README):
        file = (README.parent / target.split("#", 1)[0]).resolve()
        if file.suffix == ".md" and file.is_file() and file not in pages:
            pages.append(file)
    return pages


def code_files():
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            path = Path(folder) / name
            if path.suffix in CODE_SUFFIXES:
                yield path


def settings_in_code() -> dict[str, Path]:
    """``NDCG_LAB_*`` name -> the first file using it (lines of doctests, ``>>>``, left out: a doctest may
    name a variable that does not exist on purpose)."""
    found: dict[str, Path] = {}
    for path in code_files():
        try:
            lines = text(path).splitlines()
        except UnicodeDecodeError:
            continue
        for line in lines:
            if line.lstrip().startswith(">>>"):
                continue
            for name in SETTING.findall(line):
                found.setdefault(name, path)
    return found


def test_the_readme_is_short():
    lines = text(README).count("\n")
    assert lines <= MAX_LINES, f"README.md has {lines} lines; at most {MAX_LINES} (move details to docs/)"


def test_every_setting_the_code_reads_is_named_for_users():
    found = settings_in_code()
    # The scan itself works: settings read by the classroom, the handout and the test script are found.
    assert {"NDCG_LAB_TRUSTED_PROXIES", "NDCG_LAB_WRONG_CODES_PER_ADDRESS", "NDCG_LAB_FONT",
            "NDCG_LAB_SKIP_INSTALL"} <= set(found)
    documented = "\n".join(text(p) for p in linked_pages())
    missing = {name: str(path.relative_to(ROOT)) for name, path in found.items()
               if not re.search(rf"\b{name}\b", documented)}
    assert not missing, f"settings read by the code but named neither in README.md nor a page it links to: {missing}"


def test_trusted_proxies_are_documented_as_addresses_never_a_count():
    """Red team F9: the README told operators to set the number of proxies, which the app refuses."""
    readme = text(README)
    for m in re.finditer(r"NDCG_LAB_TRUSTED_PROXIES=(\S+)", readme):
        assert re.match(r"[0-9a-fA-F:.]+(/\d+)?", m.group(1)) and not m.group(1).isdigit(), m.group(0)
    assert "NDCG_LAB_TRUSTED_PROXIES=127.0.0.1" in readme
    assert "python deploy/nginx.py" in readme and "#key=" in readme


@pytest.mark.parametrize("page", linked_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path):
    targets = relative_links(page)
    if page == README:
        assert targets, "the scan finds README.md's links"
    broken = []
    for target in targets:
        file_part, _, fragment = target.partition("#")
        file = (page.parent / file_part).resolve() if file_part else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif fragment and file.suffix == ".md" and fragment not in anchors(text(file)):
            broken.append(f"{target}: no heading with anchor #{fragment} in {file.name}")
    assert not broken, f"{page.name}: {broken}"


def table_cells(line: str) -> int:
    r"""Cells of a GFM table row: every ``|`` not escaped splits, inside code spans too (GFM's rule).

    >>> table_cells("| a | `b | c` |"), table_cells(r"| a | `b \| c` |")
    (3, 2)
    """
    return len(re.findall(r"(?<!\\)\|", line.strip().strip("|"))) + 1


@pytest.mark.parametrize("page", linked_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_table_row_has_its_headers_cells(page: Path):
    """GitHub drops the cells of a row beyond its header's (an unescaped ``|`` in a code span makes one)."""
    bad, width, fenced = [], None, False
    for number, line in enumerate(text(page).splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if fenced or not line.startswith("|"):
            width = None
            continue
        if width is None:
            width = table_cells(line)
        elif table_cells(line) != width:
            bad.append(f"line {number}: {table_cells(line)} cells, the header has {width}")
    assert not bad, f"{page.name}: {bad}"


#: Repository paths a page names in its text (a test file may carry ``::name``); ``*`` and ``<placeholder>``
#: stand for any name (``ui/pages/<key>.py``, ``data/samples/*.run``).
REPO_PATH = re.compile(r"(?<![\w/.<])((?:tests|benchmarks|scripts|deploy|metrics|ui|classroom|pages|docs|data"
                       r"|\.streamlit)/(?:[\w./*-]|<\w+>)*(?:[\w/*]|<\w+>))(::\w+)?(?![\w<])")
#: Dotted names of the code a page names: ``ui.pages.run_files.view.UPLOAD_LIMITS``, ``metrics.match_number``.
DOTTED = re.compile(r"(?<![\w/.-])((?:metrics|ui|classroom)(?:\.[A-Za-z_]\w*)+)")
#: Paths that exist only once the app has run or an operator made them.
MADE_AT_RUN_TIME = ("data/classroom/", ".streamlit/secrets.toml", "benchmarks/data/")
#: Every page of documentation whose names must exist: README.md, what it links to, every page under docs/
#: (the helpers' notes aside) and benchmarks/README.md. CHANGELOG.md is history: it names what was.
DOC_PAGES = sorted({*linked_pages(), *(ROOT / "docs").glob("*.md"), ROOT / "benchmarks" / "README.md"}
                   - {ROOT / "CHANGELOG.md"})


def missing_paths(markdown: str) -> list[str]:
    """The repository paths a page names that do not exist (a pattern: that nothing matches).

    >>> missing_paths("`ui/pages/<key>.py`, `data/samples/*.run`, ui/no_such.py and tests/test_readme.py::nope")
    ['ui/no_such.py', 'tests/test_readme.py::nope']
    """
    missing = []
    for path, test in REPO_PATH.findall(markdown):
        if path.startswith(MADE_AT_RUN_TIME):
            continue
        pattern = re.sub(r"<\w+>", "*", path).rstrip("/")
        files = sorted(ROOT.glob(pattern)) if "*" in pattern else [ROOT / pattern]
        if not any(f.exists() for f in files):
            missing.append(path)
        elif test and not any(f.is_file() and re.search(rf"^(def {test[2:]}\b|{test[2:]}\s*=)", text(f), re.M)
                              for f in files):
            missing.append(path + test)
    return missing


def missing_names(markdown: str) -> list[str]:
    """The dotted names of the code a page names (``ui.state.link_text``) that no module defines: the longest
    prefix that is a module of the repository is imported and the rest looked up in it.

    >>> missing_names("`metrics.ndcg.ndcg`, `ui.state.REGISTRY`, `metrics.nothing_here` and docs/classroom.md")
    ['metrics.nothing_here']
    """
    missing = []
    for name in dict.fromkeys(DOTTED.findall(markdown)):
        parts = name.split(".")
        if parts[-1] in {"md", "py", "toml", "txt", "run", "sqlite3", "csv", "conf"}:
            continue  # a file name such as classroom.md
        depth = max(i for i in range(1, len(parts) + 1)
                    if (ROOT.joinpath(*parts[:i]).with_suffix(".py")).is_file()
                    or (ROOT.joinpath(*parts[:i]) / "__init__.py").is_file())
        try:
            value = importlib.import_module(".".join(parts[:depth]))
            for attribute in parts[depth:]:
                value = getattr(value, attribute)
        except (ImportError, AttributeError):
            missing.append(name)
    return missing


@pytest.mark.parametrize("page", [p for p in DOC_PAGES if p.name != "TEAM_BRIEF.md"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_and_test_a_page_names_exists(page: Path):
    """A page that says "tested by tests/x.py::test_y" or "run benchmarks/z.py" names something that exists.
    (docs/TEAM_BRIEF.md, the lead's plan for a session, names files still to be written.)"""
    if page == README:
        assert REPO_PATH.findall(text(page)), "the scan finds the README's paths"
    missing = missing_paths(text(page))
    assert not missing, f"{page.name} names what does not exist: {missing}"


@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_module_and_name_a_page_names_exists(page: Path):
    """``ui.runfiles_view.UPLOAD_LIMITS`` after the module moved to ``ui/pages/run_files/view.py`` is caught:
    every dotted ``metrics.``/``ui.``/``classroom.`` name is imported (TEAM_BRIEF.md included: its layout rules
    name modules that exist)."""
    missing = missing_names(text(page))
    assert not missing, f"{page.name} names modules or attributes that do not exist: {missing}"


# --- link parameters --------------------------------------------------------------------------------
#: app.py's page -> the first cell of its row in the README's table of link parameters.
LINK_ROWS = {
    "playground": "Playground", "worked_examples": "Worked examples", "variants": "Variants",
    "match": "Which convention?", "diversity": "Diversity", "check": "Check", "practice": "Practice",
    "present": "Present", "topn": "Top-N", "rating": "Rating", "roc": "ROC", "run_files": "Run files",
    "class": "Classroom", "join": "Classroom",
}


def app_pages() -> list[tuple[str, str]]:
    """``(script, url path)`` of every page in app.py's ``PAGES`` list (parsed, not imported)."""
    tree = ast.parse(text(ROOT / "app.py"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "PAGES" for t in node.targets):
            return [(e.elts[0].value, e.elts[1].value) for e in node.value.elts]
    raise AssertionError("app.py has no PAGES list")


def link_table_rows() -> dict[str, str]:
    """First cell -> the row's parameters cell, of the README table headed ``| page | parameters``."""
    lines = text(README).splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"\|\s*page\s*\|\s*parameters", line))
    rows = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        first, rest = line.strip("|").split("|", 1)
        rows[first.strip()] = rest
    return rows


def test_every_link_parameter_of_every_page_is_in_the_readme():
    pages = app_pages()
    unmapped = [path for _, path in pages if path not in LINK_ROWS]
    assert not unmapped, f"pages without a row in LINK_ROWS (add the page's row to the README's table): {unmapped}"
    rows = link_table_rows()
    missing = {}
    for script, path in pages:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.switch_page(script)
        at.run()
        assert not at.exception, f"{script}: {[str(e.value)[:200] for e in at.exception]}"
        entry = ui_state.REGISTRY.get(path)
        assert entry is not None, f"{script} declared no fields through ui.state"
        row = rows.get(LINK_ROWS[path])
        assert row is not None, f"the README's link table has no row {LINK_ROWS[path]!r}"
        params = [f.param for f in entry.fields if f.param]
        absent = [p for p in params if f"`{p}`" not in row]
        if absent:
            missing[path] = absent
    assert not missing, f"link parameters missing from the README's table: {missing}"


# --- what the README shows runs -------------------------------------------------------------------
def cli_commands() -> list[str]:
    """Every ``python -m metrics.runfiles`` command in the README's bash blocks (continued lines joined,
    comments dropped), ``--spark`` ones aside."""
    commands, fenced, lines = [], False, text(README).splitlines()
    joined = []
    for line in lines:
        if line.startswith("```"):
            fenced = line.strip() == "```bash"
            continue
        if fenced:
            if joined and joined[-1].endswith("\\"):
                joined[-1] = joined[-1][:-1] + " " + line.strip()
            else:
                joined.append(line.strip())
    for line in joined:
        if line.startswith("python -m metrics.runfiles") and "--spark" not in line:
            commands.append(re.sub(r"\s+#.*$", "", line))
    return commands


def test_the_readme_shows_the_new_commands():
    shown = " ".join(cli_commands())
    for part in ("--match", "-m nDCG@10", "subtopics", "--csv", "--compare", "--variants"):
        assert part in shown, part


@pytest.mark.parametrize("command", cli_commands())
def test_every_command_line_example_runs(command: str, tmp_path):
    samples = ROOT / "data" / "samples"
    args = []
    for word in shlex.split(command)[3:]:  # after "python -m metrics.runfiles"
        if word.startswith("data/samples/"):
            matches = sorted(samples.parent.parent.glob(word))
            assert matches, f"{word} names no sample file"
            args += [str(p) for p in matches]
        else:
            args.append(word)  # anything else (an output file) is written under tmp_path, the cwd below
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this tree's metrics, not an editable install's
    done = subprocess.run([sys.executable, "-m", "metrics.runfiles", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{command}: exit {done.returncode}\n{done.stderr[-2000:]}"
    assert done.stdout.strip(), f"{command}: printed nothing"
    assert "Traceback" not in done.stderr


# --- the examples of the docs pages run -------------------------------------------------------------
@pytest.mark.parametrize("page", [p for p in DOC_PAGES if p != README and ">>> " in text(p)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_python_example_of_a_docs_page_runs(page: Path, monkeypatch):
    """The ``>>>`` examples of docs/*.md run as written, from the repository's root (they name the sample
    files relatively), as README.md's do through ``--doctest-glob``."""
    monkeypatch.chdir(ROOT)
    failed, tried = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS,
                                     verbose=False, report=True)
    assert tried, f"{page.name}: no example found"
    assert not failed, f"{page.name}: {failed} of {tried} examples failed (see the output above)"
