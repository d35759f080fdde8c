"""targets/openmp_runtime.py: which production OpenMP runtime the host's threads run on,
the choice through OMP2GPU_OPENMP_RUNTIME, and the message when there is none; a program
gives gcc's output on each runtime this machine has."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from omp2gpu.diagnostics import CompileError
from omp2gpu.targets import openmp_runtime

PROGRAM = textwrap.dedent("""\
    #include <stdio.h>
    #include <omp.h>
    int main(void) {
        int hits = 0; long sum = 0;
        #pragma omp parallel reduction(+:hits)
        hits += 1;
        #pragma omp parallel for schedule(dynamic, 7) reduction(+:sum)
        for (int i = 0; i < 1000; i++) sum += i;
        printf("%d %ld\\n", hits == omp_get_max_threads(), sum);
        return 0;
    }
    """)


def test_default_order_prefers_libgomp(monkeypatch):
    monkeypatch.delenv(openmp_runtime.ENVIRONMENT, raising=False)
    monkeypatch.setattr(openmp_runtime, "_libgomp", lambda: "libgomp.so.1")
    monkeypatch.setattr(openmp_runtime, "_wheel_libiomp5", lambda: "/env/lib/libiomp5.so")
    assert [r.name for r in openmp_runtime.candidates()] == ["libgomp", "libiomp5"]
    monkeypatch.setenv(openmp_runtime.ENVIRONMENT, "iomp5")
    assert [r.path for r in openmp_runtime.candidates()] == ["/env/lib/libiomp5.so"]
    monkeypatch.setenv(openmp_runtime.ENVIRONMENT, "/opt/x/libomp.so")
    assert [r.path for r in openmp_runtime.candidates()] == ["/opt/x/libomp.so"]


def test_no_runtime_is_a_message_with_the_fixes(monkeypatch):
    monkeypatch.setattr(openmp_runtime, "candidates", lambda: [])
    openmp_runtime.load.cache_clear()
    try:
        with pytest.raises(CompileError, match=r"pip install 'omp2gpu\[openmp\]'"):
            openmp_runtime.load()
    finally:
        openmp_runtime.load.cache_clear()


@pytest.mark.parametrize("choice", ["gomp", "iomp5"])
def test_a_program_runs_with_real_threads_on_each_runtime(choice, tmp_path, monkeypatch):
    monkeypatch.delenv(openmp_runtime.ENVIRONMENT, raising=False)
    available = {"gomp": openmp_runtime._libgomp(), "iomp5": openmp_runtime._wheel_libiomp5()}
    if not available[choice]:
        pytest.fail(f"{choice} is missing: libgomp comes with gcc, libiomp5 with `pip install -e .`")
    source = tmp_path / "threads.c"
    source.write_text(PROGRAM)
    env = dict(os.environ, OMP2GPU_OPENMP_RUNTIME=choice, OMP_NUM_THREADS="3")
    result = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", "host", str(source)],
                            capture_output=True, text=True, env=env, timeout=300)
    assert (result.returncode, result.stdout) == (0, "1 499500\n"), result.stderr
