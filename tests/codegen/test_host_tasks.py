"""Tasks, threadprivate and declare simd on the host (one team of one thread).

Programs are compiled and run through the CLI; the expected outputs are what
GCC prints for them (with OMP_NUM_THREADS=1 where a parallel region prints)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent.parent


def _cli(tmp_path, source: str, *args: str) -> subprocess.CompletedProcess:
    path = tmp_path / "prog.c"
    path.write_text(source)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO_ROOT), env.get("PYTHONPATH", "")] if p)
    command = [sys.executable, "-m", "omp2gpu.tools.cli", *args, str(path)]
    return subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)


def run(tmp_path, source: str) -> str:
    result = _cli(tmp_path, source, "run")
    assert result.returncode == 0, result.stderr
    return result.stdout


def compile_error(tmp_path, source: str) -> str:
    result = _cli(tmp_path, source, "compile", "--emit-llvm", "-o", "-")
    assert result.returncode != 0, "compiled"
    return result.stderr


# --------------------------------------------------------------------------- tasks

IMPLICIT_DATA_SHARING = r"""
#include <stdio.h>
int g = 0;
static void orphan(int p) {
    int local = 1;
#pragma omp task                /* orphaned: local and p are firstprivate, g shared */
    { local = 100; p = 100; g += 1; }
#pragma omp taskwait
    printf("orphan: local=%d p=%d g=%d\n", local, p, g);
}
int main(void) {
    int outside = 0, arr[4] = {0, 0, 0, 0}, seq = 0, r = 0;
#pragma omp task                /* sequential part: firstprivate */
    seq = 5;
    printf("seq=%d\n", seq);
#pragma omp parallel
    {
        int inside = 0;
#pragma omp single
        {
#pragma omp task                /* outside, arr shared by the team; inside firstprivate */
            { outside = 1; inside = 1; arr[1] = 7; }
#pragma omp taskwait
            printf("outside=%d inside=%d arr1=%d\n", outside, inside, arr[1]);
            orphan(3);
        }
    }
#pragma omp parallel
#pragma omp single
    {
        int count = 0;
#pragma omp task shared(count)
        {
#pragma omp task                /* shared by the outer task only: firstprivate */
            count += 10;
#pragma omp taskwait
            count += 1;
        }
#pragma omp taskwait
        printf("count=%d\n", count);
    }
#pragma omp parallel
    {
        int w = 0, v = 0, f = 0;
#pragma omp parallel firstprivate(f)
        {
#pragma omp task                /* w shared by the inner team, f its private copy */
            { w = 4; f = 6; }
#pragma omp task private(v)
            v = 8;
        }
        printf("w=%d v=%d f=%d\n", w, v, f);
    }
#pragma omp parallel
#pragma omp single private(r)
    {
        r = 1;
#pragma omp task                /* r privatised by the single */
        r = 2;
        printf("single r=%d\n", r);
    }
    printf("r=%d\n", r);
    for (int i = 0; i < 3; i++) {
#pragma omp task default(shared)
        r += i;
    }
    printf("default(shared) r=%d\n", r);
    return 0;
}
"""


def test_implicit_data_sharing(tmp_path):
    assert run(tmp_path, IMPLICIT_DATA_SHARING) == (
        "seq=0\n"
        "outside=1 inside=0 arr1=7\n"
        "orphan: local=1 p=3 g=1\n"
        "count=1\n"
        "w=4 v=0 f=0\n"
        "single r=1\n"
        "r=0\n"
        "default(shared) r=3\n")


TARGET_TASKS = r"""
#include <stdio.h>
int main(void) {
    int r = 0, s = 0, a[2] = {0, 0}, k = 0, m = 0, out[2] = {0, 0};
#pragma omp target map(tofrom: r, a)
    {
#pragma omp task                /* outside parallel/teams: firstprivate, mapped or not */
        { r = 42; a[0] = 1; s = 3; }
#pragma omp taskwait
        r += 1;
    }
    printf("r=%d a0=%d s=%d\n", r, a[0], s);
#pragma omp target teams num_teams(1) map(tofrom: out)
#pragma omp distribute
    for (int i = 0; i < 1; i++) {
#pragma omp task                /* k: the target's copy, shared by the teams */
        k = 5;
#pragma omp taskwait
        out[0] = k;
    }
#pragma omp target parallel num_threads(1) map(tofrom: out)
    {
#pragma omp task
        m = 6;
#pragma omp taskwait
        out[1] = m;
    }
    printf("k=%d m=%d out=%d,%d\n", k, m, out[0], out[1]);
    return 0;
}
"""


def test_tasks_in_target_regions(tmp_path):
    assert run(tmp_path, TARGET_TASKS) == "r=1 a0=0 s=0\nk=0 m=0 out=5,6\n"


TASK_CLAUSES = r"""
#include <stdio.h>
static int calls = 0;
static int next(void) { return ++calls; }
int main(void) {
    int x = 1, y = 2, z = 3, data[4] = {0, 0, 0, 0}, n = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task if(next() > 100) final(next() > 0) priority(next()) untied mergeable
        n++;
#pragma omp task private(x) firstprivate(y) shared(z, n)
        { x = 10; y += 10; z = y; n++; }
#pragma omp taskyield
#pragma omp taskgroup
        {
#pragma omp task depend(out: data[0:2]) shared(data)
            data[0] = 5;
#pragma omp task depend(in: data[0:2]) depend(inout: data[2]) shared(data, n)
            { data[2] = data[0] + 1; n++; }
        }
#pragma omp taskwait
        printf("calls=%d x=%d y=%d z=%d data=%d,%d n=%d\n", calls, x, y, z, data[0], data[2], n);
    }
    return 0;
}
"""


def test_task_clauses(tmp_path):
    assert run(tmp_path, TASK_CLAUSES) == "calls=3 x=1 y=2 z=12 data=5,6 n=3\n"


def test_taskloop_lastprivate_iteration_variable(tmp_path):
    """The value after the loop comes from the task that ran the last iteration, from
    its own copy of the bounds (of a collapsed nest, too)."""
    source = r"""
#include <stdio.h>
int main(void) {
    int i, j;
    long last = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop lastprivate(i, last) num_tasks(6)
        for (i = 3; i < 60; i += 4) last = i * 10L;
#pragma omp taskloop collapse(2) lastprivate(j) grainsize(5)
        for (int r = 0; r < 7; r++) for (j = 10; j > 0; j -= 3) last += 0;
    }
    printf("i=%d last=%ld j=%d\n", i, last, j);
    return 0;
}
"""
    assert run(tmp_path, source) == "i=63 last=590 j=-2\n"


def test_task_copies_arrays_and_structs(tmp_path):
    source = r"""
#include <stdio.h>
struct pair { int a, b; };
static void f(void) {
    int v[3] = {1, 2, 3};
    struct pair p = {4, 5};
#pragma omp task
    { v[0] += 10; p.a += 10; printf("in task: %d %d\n", v[0], p.a); }
    printf("after: %d %d\n", v[0], p.a);
}
int main(void) { f(); return 0; }
"""
    assert run(tmp_path, source) == "in task: 11 14\nafter: 1 4\n"


@pytest.mark.parametrize("body, message", [
    ("int a = 0;\n#pragma omp task default(none)\n  a++;",
     "4:3: error: 'a' not specified in enclosing 'task'"),    # sema/default_none, as gcc
    ("int a = 0;\n#pragma omp task shared(nothing)\n  a++;",
     "3:25: error: use of undeclared identifier 'nothing'"),
    ("int a = 0;\n#pragma omp task shared(main)\n  a++;",
     "3:25: error: 'main' in a data-sharing clause is not a variable"),
    ("int a = 0;\n#pragma omp task firstprivate(main)\n  a++;",
     "3:31: error: 'main' in a data-sharing clause is not a variable"),
    ("int a = 0;\n#pragma omp task depend(in: main)\n  a++;",
     "3:29: error: 'main' in a 'depend' clause is not a variable"),
    ("int a = 0; double d = 1;\n#pragma omp task priority(d)\n  a++;",
     "3:27: error: 'priority' needs an integer expression"),
    ("int a = 0;\n#pragma omp task if(undeclared_flag)\n  a++;",
     "3:21: error: use of undeclared identifier 'undeclared_flag'"),
])
def test_task_errors(tmp_path, body, message):
    source = "int main(void) {\n" + body + "\n  return 0;\n}\n"
    assert message in compile_error(tmp_path, source)


def test_default_none_with_listed_variables(tmp_path):
    source = r"""
#include <stdio.h>
int main(void) {
    int a = 1, b = 2;
#pragma omp task default(none) shared(a) firstprivate(b)
    { int c = b; a = c + 1; }
    printf("%d\n", a);
    return 0;
}
"""
    assert run(tmp_path, source) == "3\n"


# --------------------------------------------------------------------------- threadprivate

def test_threadprivate_copyin_copyprivate(tmp_path):
    source = r"""
#include <stdio.h>
#include <omp.h>
int counter = 5;
static double scale;
#pragma omp threadprivate(counter, scale)
static int tick(void) {
    static int calls;
#pragma omp threadprivate(calls)
    return ++calls;
}
int main(void) {
    extern int counter;
    int seen = 0;
    scale = 0.5;
#pragma omp parallel copyin(counter, scale) reduction(+: seen)
    {
        seen += counter + (scale == 0.5);
        counter += omp_get_thread_num() + 1;
#pragma omp single copyprivate(scale)
        scale = 2.0;
    }
    tick();
    printf("seen=%d counter=%d scale=%.1f ticks=%d\n", seen, counter, scale, tick());
    return 0;
}
"""
    assert run(tmp_path, source) == "seen=6 counter=6 scale=2.0 ticks=2\n"


@pytest.mark.parametrize("source, message", [
    ("static int t;\n#pragma omp threadprivate(t)\n"
     "int main(void) {\n#pragma omp parallel private(t)\n  t = 1;\n  return 0;\n}\n",
     "4:30: error: threadprivate variable 't' cannot appear in 'private' clause"),
    ("int t;\nint main(void) {\n#pragma omp parallel copyin(t)\n  t = 1;\n  return 0;\n}\n",
     "3:29: error: 't' in 'copyin' clause is not threadprivate"),
])
def test_threadprivate_errors(tmp_path, source, message):
    assert message in compile_error(tmp_path, source)


# --------------------------------------------------------------------------- declare simd

def test_declare_simd_functions(tmp_path):
    source = r"""
#include <stdio.h>
#pragma omp declare simd uniform(a) linear(i: 1) notinbranch
#pragma omp declare simd simdlen(4) inbranch
double axpy(double a, const double *x, int i);
#pragma omp declare simd aligned(x: 16)
double axpy(double a, const double *x, int i) { return a * x[i] + 1.0; }
int main(void) {
    double x[8], s = 0;
    int i;
    for (i = 0; i < 8; i++)
        x[i] = i;
#pragma omp simd reduction(+: s)
    for (i = 0; i < 8; i++)
        s += axpy(2.0, x, i);
    printf("%.1f\n", s);
    return 0;
}
"""
    assert run(tmp_path, source) == "64.0\n"
