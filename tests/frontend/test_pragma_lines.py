"""frontend/pragma_lines.py: an offset into a pragma's text, as the preprocessor gives it
(one line, blanks squeezed, macros expanded), is placed on its own source line and column."""

from __future__ import annotations

from omp2gpu.diagnostics import SourceLocation
from omp2gpu.frontend.pragma_lines import source_positions


def _positions(tmp_path, source: str, text: str, line: int, column: int):
    path = tmp_path / "prog.c"
    path.write_text(source)
    return source_positions(text, SourceLocation(str(path), line, column))


def test_continuation_lines_and_squeezed_blanks(tmp_path):
    source = ("int a[4], b;\n"
              "#pragma omp target   map(to: a) \\\n"
              "        map(from:  b)\n")
    text = "omp target map(to: a) map(from: b)"
    positions = _positions(tmp_path, source, text, 2, 9)
    assert positions[text.index("target")] == (2, 13)
    assert positions[text.index("map(to")] == (2, 22)
    assert positions[text.index("map(from")] == (3, 9)
    assert positions[text.index("b)")] == (3, 20)
    assert positions[len(text)] == (3, 22)          # one past the last character


def test_expanded_macros(tmp_path):
    source = ("#define TEAMS 4\n"
              "#pragma omp target teams num_teams(TEAMS) \\\n"
              "    map(tofrom: x,, y)\n")
    text = "omp target teams num_teams(4) map(tofrom: x,, y)"
    positions = _positions(tmp_path, source, text, 2, 9)
    assert positions[text.index("4")] == (2, 36)         # where TEAMS is
    assert positions[text.index(",,") + 1] == (3, 19)


def test_unreadable_source(tmp_path):
    assert source_positions("omp parallel", SourceLocation(str(tmp_path / "gone.c"), 1, 9)) is None
