"""codegen/openmp/data/task_depend.py: GOMP's dependence arrays for the 5.x dependence types,
iterators, depend objects and omp_all_memory, and the depobj construct."""

from __future__ import annotations

import re

from test_host_tasks import _cli


def _ir(tmp_path, source: str) -> str:
    result = _cli(tmp_path, source, "compile", "--emit-llvm", "-o", "-")
    assert result.returncode == 0, result.stderr
    return result.stdout


def _run(tmp_path, source: str, threads: int = 4) -> str:
    result = _cli(tmp_path, source.replace("THREADS", str(threads)), "run")
    assert result.returncode == 0, result.stderr
    return result.stdout


TASKS = r"""
#include <omp.h>
int a, b, c;
int main(void) {
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out: a) depend(in: b)
        a = b;
#pragma omp task depend(mutexinoutset: c) depend(in: a)
        c += a;
    }
    return c;
}
"""


def test_4_5_types_keep_the_4_5_layout_and_5_0_types_take_the_new_one(tmp_path):
    ir = _ir(tmp_path, TASKS)
    arrays = re.findall(r'%depend(?:\.\d+)? = alloca \[(\d+) x ptr\]', ir)
    assert sorted(arrays) == ["4", "7"]     # [2, 1, &a, &b] and [0, 2, 0, 1, 1, &c, &a]


ORDERING = r"""
#include <stdio.h>
#include <omp.h>
int main(void) {
    int x = 0, parts[6] = {0}, sum = -1, bins[2] = {0, 0}, order = 0, after = 0;
    omp_depend_t obj;
    omp_set_num_threads(THREADS);
#pragma omp parallel
#pragma omp single
    {
        for (int k = 0; k < 6; k++) {
#pragma omp task depend(out: parts[k]) firstprivate(k)
            parts[k] = k + 1;
        }
#pragma omp task depend(iterator(k = 0:6:2), in: parts[k]) depend(iterator(k = 1:6:2), in: parts[k]) shared(sum)
        { sum = 0; for (int k = 0; k < 6; k++) sum += parts[k]; }
        for (int k = 0; k < 40; k++) {
#pragma omp task depend(mutexinoutset: bins[k % 2]) firstprivate(k)
            bins[k % 2] += k;
        }
#pragma omp depobj(obj) depend(inout: x)
#pragma omp task depend(depobj: obj) shared(x)
        x = 7;
#pragma omp depobj(obj) update(in)
#pragma omp task depend(depobj: obj) shared(x, order)
        order = x;
#pragma omp depobj(obj) destroy
#pragma omp task depend(inout: omp_all_memory) shared(after, order, bins)
        after = order + bins[0] + bins[1];
    }
    printf("%d %d %d %d %d\n", sum, bins[0], bins[1], order, after);
    return 0;
}
"""


def test_dependences_order_the_tasks_at_every_team_size(tmp_path):
    for threads in (1, 4):
        assert _run(tmp_path, ORDERING, threads) == "21 380 400 7 787\n"


def _function(ir: str, name: str) -> str:
    start = ir.index(f"define internal void @{name}(")
    return ir[start:ir.index("\n}\n", start)]


def test_iterator_arrays_are_freed(tmp_path):
    single = _function(_ir(tmp_path, ORDERING.replace("THREADS", "4")), "main._omp_fn")
    assert single.count("@malloc(") == single.count("@free(") == 1


def test_omp_all_memory_waits_for_the_siblings_and_runs_undeferred(tmp_path):
    single = _function(_ir(tmp_path, ORDERING.replace("THREADS", "4")), "main._omp_fn")
    calls = re.findall(r"call void @(GOMP_task|GOMP_taskwait)\((.*)\)", single)
    assert calls[-2][0] == "GOMP_taskwait"
    assert calls[-1][0] == "GOMP_task" and ", i8 0, i32 " in calls[-1][1]     # if(0): undeferred


TASKWAIT = r"""
#include <stdio.h>
int main(void) {
    int a = 0, b = 0, seen = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
    {
#pragma omp task depend(out: a) shared(a)
        a = 1;
#pragma omp task depend(out: b) shared(b)
        b = 2;
#pragma omp taskwait depend(in: a)
        seen = a;
#pragma omp taskwait nowait depend(inout: b)
#pragma omp task depend(in: b) shared(b, seen)
        seen += b * 10;
    }
    printf("%d\n", seen);
    return 0;
}
"""


def test_taskwait_with_depend_and_nowait(tmp_path):
    assert _run(tmp_path, TASKWAIT) == "21\n"
    ir = _ir(tmp_path, TASKWAIT)
    assert "call void @GOMP_taskwait_depend(" in ir
    assert "call void @GOMP_task(ptr nonnull @__omp2gpu_empty_task" in ir


ONCE = r"""
#include <stdio.h>
int calls = 0;
int n(void) { return ++calls, 4; }
int main(void) {
    int a[8] = {0}, s = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        for (int k = 0; k < 8; k++) {
#pragma omp task depend(out: a[k]) firstprivate(k)
            a[k] = k;
        }
#pragma omp task depend(iterator(i = 0:n(), j = 0:2), in: a[i * 2 + j]) shared(s)
        for (int k = 0; k < 8; k++) s += a[k];
    }
    printf("%d %d\n", s, calls);
    return 0;
}
"""


def test_iterator_bounds_are_evaluated_once(tmp_path):
    assert _run(tmp_path, ONCE) == "28 1\n"        # gcc's output


ZERO_STEP = r"""
#include <stdio.h>
int main(int argc, char **argv) {
    int a[4] = {0}, s = 0, step = argc - 1, n = 4;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(iterator(k = 0:n:step), out: a[k]) shared(s)
        s += 1;
#pragma omp task depend(iterator(k = n:0:-1), in: a[k]) shared(s)
        s += 2;
    }
    printf("%d\n", s);
    return 0;
}
"""


def test_an_iterator_whose_step_is_zero_at_run_time_depends_on_nothing(tmp_path):
    assert _run(tmp_path, ZERO_STEP) == "3\n"      # gcc's output; no division by zero
