"""sema/task_reduction_operators.py: an in_reduction's operator must be the one of the
task reduction around it (taskgroup task_reduction, reduction(task), taskloop reduction)."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema.task_reduction_operators import check_task_reduction_operators


def _check(tmp_path, body: str):
    path = tmp_path / "prog.c"
    path.write_text(f"int main(void) {{\n int s = 0, p = 1;\n{body}\n return s;\n}}\n")
    check_task_reduction_operators(driver.parse_file(path, driver.CompileOptions()))


MATCHING = {
    "taskgroup": "#pragma omp taskgroup task_reduction(+: s)\n{\n#pragma omp task in_reduction(+: s)\ns++;\n}",
    "another item": "#pragma omp taskgroup task_reduction(+: s) task_reduction(*: p)\n{\n"
                    "#pragma omp task in_reduction(*: p)\np *= 2;\n}",
    "reduction(task) on parallel": "#pragma omp parallel reduction(task, max: s)\n{\n"
                                   "#pragma omp task in_reduction(max: s)\ns = 3;\n}",
    "an orphaned participant": "#pragma omp task in_reduction(*: s)\ns *= 2;",
    "a plain reduction is no task reduction": "#pragma omp parallel reduction(+: s)\n#pragma omp single\n"
                                              "{\n#pragma omp task in_reduction(*: s)\ns *= 2;\n}",
}


@pytest.mark.parametrize("body", MATCHING.values(), ids=MATCHING.keys())
def test_matching_or_unknown_operators_pass(tmp_path, body):
    _check(tmp_path, body)


MISMATCHED = {
    "taskgroup": ("#pragma omp taskgroup task_reduction(+: s)\n{\n#pragma omp task in_reduction(*: s)\ns++;\n}",
                  5, "'in_reduction' of 's' with '*' does not match the '+' of the 'task_reduction' clause"),
    "taskloop's tasks": ("#pragma omp taskloop reduction(+: s)\nfor (int i = 0; i < 4; i++) {\n"
                         "#pragma omp task in_reduction(max: s)\ns = i;\n}",
                         5, "with 'max' does not match the '+' of the 'reduction' clause"),
    "inner taskgroup wins": ("#pragma omp taskgroup task_reduction(+: s)\n{\n"
                             "#pragma omp taskgroup task_reduction(min: s)\n{\n"
                             "#pragma omp task in_reduction(+: s)\ns = 1;\n}\n}",
                             7, "with '+' does not match the 'min' of the 'task_reduction' clause it "
                                "participates in (line 5)"),
}


@pytest.mark.parametrize("body, line, message", MISMATCHED.values(), ids=MISMATCHED.keys())
def test_a_different_operator_is_located(tmp_path, body, line, message):
    with pytest.raises(CompileError) as info:
        _check(tmp_path, body)
    assert message in info.value.message
    assert info.value.location.line == line
