"""error_order.py: the error a compilation stopped at gives way to an earlier one of
the same file (tests/bad_input/first_error_*.c run these through the command line)."""

from __future__ import annotations

import pytest

from omp2gpu import error_order
from omp2gpu.diagnostics import CompileError
from omp2gpu.pipeline import CompileOptions, parse_file

SOURCE = """\
int main(void)
{
    int s = 0;
    s = q + 1;
    s = s + ;
    return s;
}
"""


def _first_error(tmp_path) -> tuple[CompileError, object]:
    path = tmp_path / "prog.c"
    path.write_text(SOURCE)
    with pytest.raises(CompileError) as stopped:
        parse_file(path, CompileOptions())
    return stopped.value, path


def test_an_earlier_error_of_the_file_comes_first(tmp_path):
    stopped, path = _first_error(tmp_path)
    assert stopped.location.line == 5                       # the syntax error, found first
    first = error_order.first_in_source_order(stopped, [str(path)], CompileOptions())
    assert (first.location.line, first.message) == (4, "use of undeclared identifier 'q'")


def test_the_search_stops_at_its_time_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(error_order, "_BUDGET_S", -1.0)
    stopped, path = _first_error(tmp_path)
    assert error_order.first_in_source_order(stopped, [str(path)], CompileOptions()) is stopped


def test_an_error_in_another_file_is_kept(tmp_path):
    stopped, _ = _first_error(tmp_path)
    assert error_order.first_in_source_order(stopped, [str(tmp_path / "other.c")], CompileOptions()) is stopped
