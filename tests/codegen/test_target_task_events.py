"""Target tasks (codegen/openmp/host/target_task_events.py, host_tasks.emit_target_task): a
deferred target region that launches a kernel is a detached task whose body offers its
event to the launch; stand-alone data constructs with nowait/depend are tasks too, not
detached; the scalars their clauses name are copied when the task is created."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from omp2gpu.offload.abi import TASK_MAY_RUN_AHEAD

REPO_ROOT = Path(__file__).resolve().parent.parent.parent

PROGRAM = r"""
#include <stdio.h>
#define N 256
double u[N], v[N];
int main(void) {
    int i;
    for (i = 0; i < N; i++) u[i] = i;
#pragma omp target data map(tofrom: u[0:N]) map(alloc: v[0:N])   /* v comes back by the update alone */
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        double *p = v;
        int n = N;
#pragma omp target teams distribute parallel for nowait depend(out: u[0:N])   /* detached */
        for (i = 0; i < N; i++) u[i] += 1.0;
#pragma omp target teams distribute parallel for depend(in: u[0:N])   /* undeferred: not detached */
        for (i = 0; i < N; i++) v[i] = 2.0 * u[i];
#pragma omp target update from(p[0:n]) nowait depend(in: u[0:N])     /* a task, not detached */
        p = u;                          /* the task took p (and n) when it was created */
        n = 0;
#pragma omp taskwait
    }
    printf("%g %g\n", u[N - 1], v[N - 1]);
    return 0;
}
"""


def _cli(tmp_path, *args: str) -> subprocess.CompletedProcess:
    path = tmp_path / "prog.c"
    path.write_text(PROGRAM)
    env = dict(os.environ, OMP_NUM_THREADS="2")
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO_ROOT), env.get("PYTHONPATH", "")] if p)
    return subprocess.run([sys.executable, "-m", "omp2gpu.tools.cli", *args, str(path)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)


def _task_flags(host_ir: str) -> list[int]:
    """GOMP_task's flags argument at each call of the program's, in source order (the host
    runtime linked in makes tasks of its own: runtime/host/omp_api.c's asynchronous copies)."""
    runtime = {name for source in (REPO_ROOT / "runtime" / "host").glob("*.c")
               for name in re.findall(r"^(?:static )?[\w \*]+?\b(\w+)\([^;]*\)\s*\{", source.read_text(), re.M)}
    program = "".join(block for block in host_ir.split("\ndefine ")[1:]
                      if not re.match(r"[^@]*@\"?([\w.]+)\"?\(", block)
                      or re.match(r"[^@]*@\"?([\w.]+)\"?\(", block).group(1) not in runtime)
    return [int(m.group(1)) for m in re.finditer(r"call void @GOMP_task\((?:[^,]*,){6} i32 (\d+),", program)]


def test_only_a_deferred_kernel_launch_is_detached(tmp_path):
    done = _cli(tmp_path, "compile", "--emit-llvm", "-c", "-o", "prog.ll")
    assert done.returncode == 0, done.stderr
    host_ir = (tmp_path / "prog.ll").read_text()
    detach, depend = 1 << 13, 8           # libgomp's GOMP_TASK_FLAG_DETACH (gcc passes it for detach())
    assert _task_flags(host_ir) == [detach | depend, depend, depend]
    for name in ("__omp2gpu_target_task_begin", "__omp2gpu_target_task_end", "omp_fulfill_event"):
        assert len(re.findall(rf"call \w+ @{name}\(", host_ir)) == 1, name


def test_results_on_the_host_and_the_cpu_device(tmp_path):
    for device in ("host", "cpu"):
        done = _cli(tmp_path, "run", "--device", device)
        assert done.returncode == 0, done.stderr
        assert done.stdout == "256 512\n", device


RUN_AHEAD_PROGRAM = r"""
#define N 64
double u[N];
int main(void) {
    int i;
#pragma omp target teams distribute parallel for nowait depend(inout: u[0:N])   /* ordered: must not run ahead */
    for (i = 0; i < N; i++) u[i] += 1.0;
#pragma omp target teams distribute parallel for nowait                        /* may run ahead */
    for (i = 0; i < N; i++) u[i] += 2.0;
#pragma omp taskwait
    return 0;
}
"""


def test_only_a_task_with_no_depend_may_run_ahead(tmp_path):
    """__omp2gpu_target_task_begin's flags: TASK_MAY_RUN_AHEAD (runtime/offload/run_ahead.c)
    for the task that names no storage, none for the one ordered by depend."""
    (tmp_path / "prog.c").write_text(RUN_AHEAD_PROGRAM)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in [str(REPO_ROOT), os.environ.get("PYTHONPATH", "")]
                                                      if p))
    done = subprocess.run([sys.executable, "-m", "omp2gpu.tools.cli", "compile", "--emit-llvm", "-c", "-o",
                           "prog.ll", "prog.c"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    flags = re.findall(r"call void @__omp2gpu_target_task_begin\([^,]+, i32 (\d+)\)",
                       (tmp_path / "prog.ll").read_text())
    assert sorted(map(int, flags)) == [0, TASK_MAY_RUN_AHEAD]
