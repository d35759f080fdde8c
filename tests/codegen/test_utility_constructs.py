"""utility_constructs.py and the host schemes' OpenMP 5.0/5.1 hooks: masked (filter),
scope (private, reduction, nowait), error at(execution) (a message; fatal ends the
program as libgomp's does), flush with a memory order, and the master/masked
combinations, on several threads (gcc's output where gcc is present)."""

from __future__ import annotations

import re
import subprocess
import sys

from host_programs import REPO_ROOT, host_ir, run_like_gcc

CONSTRUCTS = r"""
#include <stdio.h>
#include <omp.h>
int main(void) {
  int last = -1, zero = -1, s = 100, n = 0, x[64];
  #pragma omp parallel
  {
    #pragma omp masked filter(omp_get_num_threads() - 1)
    last = omp_get_thread_num() == omp_get_num_threads() - 1;
    #pragma omp masked
    zero = omp_get_thread_num();
    int mine = omp_get_thread_num() + 1, p = -5;
    #pragma omp scope reduction(+: s) private(p)
    { p = mine; s += p; }
    #pragma omp single
    n = s - 100 - omp_get_num_threads() * (omp_get_num_threads() + 1) / 2;
  }
  #pragma omp parallel masked taskloop filter(0) grainsize(8)
  for (int i = 0; i < 64; i++) x[i] = 2 * i;
  #pragma omp parallel
  {
    #pragma omp master taskloop simd
    for (int i = 0; i < 64; i++) x[i] += 1;
  }
  long sum = 0;
  for (int i = 0; i < 64; i++) sum += x[i];
  #pragma omp flush acq_rel
  #pragma omp flush release
  printf("%d %d %d %ld\n", last, zero, n, sum);
  return 0;
}
"""


def test_masked_scope_and_the_combinations_print_gcc_s_output(tmp_path):
    for threads in (1, 3):
        assert run_like_gcc(tmp_path, CONSTRUCTS, threads) == "1 0 0 4096\n"


def test_flush_memory_orders_are_llvm_fences(tmp_path):
    source = ("int main(void) {\n#pragma omp flush\n#pragma omp flush acquire\n#pragma omp flush release\n"
              "#pragma omp flush acq_rel\nreturn 0;\n}\n")
    fences = re.findall(r"fence (\w+)", host_ir(tmp_path, source))
    assert fences == ["seq_cst", "acquire", "release", "acq_rel"]


def _run(tmp_path, source):
    path = tmp_path / "err.c"
    path.write_text(source)
    return subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", "host", str(path)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          env={"PYTHONPATH": str(REPO_ROOT), "PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "2"})


def test_error_at_execution_warns_or_ends_the_program(tmp_path):
    source = r"""
#include <stdio.h>
int main(void) {
  printf("before\n");
  #pragma omp error at(execution) severity(warning) message("check the input")
  printf("after the warning\n");
  #pragma omp error at(execution) message("giving up")
  printf("not printed\n");
  return 0;
}
"""
    result = _run(tmp_path, source)
    assert result.returncode == 1
    assert result.stdout == "before\nafter the warning\n"
    assert "error directive encountered: check the input" in result.stderr
    assert "fatal error: error directive encountered: giving up" in result.stderr
