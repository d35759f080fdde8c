"""host_cancel.py: cancel and cancellation point for, parallel and taskgroup, with
OMP_CANCELLATION=true (gcc's output where gcc is present), and the located error for a
cancel outside its construct."""

from __future__ import annotations

import subprocess
import sys

import pytest
from host_programs import REPO_ROOT, run

SOURCE = """
#include <stdio.h>
#include <omp.h>
int main(void) {
  int found = -1, visited = 0, tasks_run = 0;
  #pragma omp parallel for
  for (int i = 0; i < 1000; i++) {
    if (i == 377) {
      #pragma omp critical
      found = i;
      #pragma omp cancel for
    }
    #pragma omp cancellation point for
  }
  #pragma omp parallel
  {
    #pragma omp atomic
    visited++;
    #pragma omp barrier
    #pragma omp cancel parallel if(omp_get_thread_num() == 0)
    #pragma omp barrier
  }
  #pragma omp parallel
  #pragma omp single
  #pragma omp taskgroup
  for (int i = 0; i < 100; i++) {
    #pragma omp task shared(tasks_run)
    {
      #pragma omp cancel taskgroup if(i == 0)
      #pragma omp atomic
      tasks_run++;
    }
  }
  printf("%d %d %s\\n", found, visited == omp_get_max_threads(), tasks_run < 100 ? "cancelled" : "all");
  return 0;
}
"""


@pytest.mark.parametrize("threads", [1, 3])
def test_cancelled_constructs_end(tmp_path, threads):
    assert run(tmp_path, SOURCE, threads, ("OMP_CANCELLATION", "true")) == "377 1 cancelled\n"


def test_without_cancellation_nothing_is_cancelled(tmp_path):
    assert run(tmp_path, SOURCE, 2, ("OMP_CANCELLATION", "false")) == "377 1 all\n"


def test_cancel_outside_its_construct_is_located(tmp_path):
    path = tmp_path / "bad.c"
    path.write_text("int main(void) {\n#pragma omp parallel\n{\n#pragma omp cancel for\n}\nreturn 0;\n}\n")
    result = subprocess.run([sys.executable, "-m", "omp2gpu", "compile", "--emit-llvm", "-o", "-", str(path)],
                            capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    assert result.returncode == 1
    assert "bad.c:4:9: error: 'cancel for' construct not closely nested inside of 'for'" in result.stderr
