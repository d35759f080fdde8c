"""frontend/openmp/pragma_lines.py: an offset into a pragma's text, as the preprocessor gives it
(one line, blanks squeezed, macros expanded), is placed on its own source line and column."""

from __future__ import annotations

import pytest

from omp2gpu.diagnostics import SourceLocation
from omp2gpu.frontend.openmp.pragma_lines import source_positions

CASES = {
    # source, the preprocessed text from the `omp` word at (2, 9), {piece of the text: where}
    "continuation lines and squeezed blanks": (
        "int a[4], b;\n#pragma omp target   map(to: a) \\\n        map(from:  b)\n",
        "omp target map(to: a) map(from: b)",
        {"target": (2, 13), "map(to": (2, 22), "map(from": (3, 9), "b)": (3, 20),
         None: (3, 22)}),                                   # None: one past the last character
    "expanded macros": (
        "#define TEAMS 4\n#pragma omp target teams num_teams(TEAMS) \\\n    map(tofrom: x,, y)\n",
        "omp target teams num_teams(4) map(tofrom: x,, y)",
        {"4": (2, 36), ", y": (3, 19)}),                   # 4: where TEAMS is
}


@pytest.mark.parametrize("source, text, expected", CASES.values(), ids=CASES.keys())
def test_offsets_go_back_to_their_source_line(tmp_path, source, text, expected):
    path = tmp_path / "prog.c"
    path.write_text(source)
    positions = source_positions(text, SourceLocation(str(path), 2, 9))
    assert {piece: positions[len(text) if piece is None else text.index(piece)]
            for piece in expected} == expected


def test_unreadable_source(tmp_path):
    assert source_positions("omp parallel", SourceLocation(str(tmp_path / "gone.c"), 1, 9)) is None
