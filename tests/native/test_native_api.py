"""omp2gpu.load on the C offload runtime (native=True, or OMP2GPU_NATIVE=1): a shared
library linked against the process's one libomp2gpu.so, called with NumPy arrays, whose
offload errors are omp2gpu.OffloadError exceptions instead of an exit of the interpreter.
Each case runs in a fresh interpreter: the runtime reads its environment once."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]

pytest.importorskip("numpy")

LIBRARY = textwrap.dedent("""
    import numpy as np, omp2gpu
    lib = omp2gpu.load(source='''
    #include <omp.h>
    int scale(int n, double a, double *x) {
        int on_device = 0;
        #pragma omp target teams distribute parallel for map(tofrom: x[0:n]) map(tofrom: on_device)
        for (int i = 0; i < n; i++) { x[i] *= a; if (i == 0) on_device = !omp_is_initial_device(); }
        return on_device;
    }
    void negative(int n, double *x) {
        #pragma omp target map(tofrom: x[0:n])
        x[0] += 1.0;
    }
    void overlapping(double *x) {
        #pragma omp target data map(to: x[0:4])
        {
            #pragma omp target map(tofrom: x[2:4])
            x[2] += 1.0;
        }
    }
    ''', native=True)
""")


def python(script: str, **environ: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])),
           **environ}
    return subprocess.run([sys.executable, "-c", LIBRARY + textwrap.dedent(script)], capture_output=True, text=True,
                          env=env, timeout=300)


def test_numpy_arrays_on_the_cpu_device():
    done = python("""
        x = np.arange(6.0)
        print(lib.scale(6, 2.0, x), x.tolist())
        twice = 'int twice(int v) { int r; _Pragma("omp target map(from: r)") r = 2 * v; return r; }'
        again = omp2gpu.load(source=twice, native=True)
        print(again.twice(21))
    """, OMP2GPU_DEVICES="cpu")
    assert done.stdout == "1 [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]\n42\n", done.stderr


def test_offload_errors_are_exceptions_and_the_interpreter_goes_on():
    done = python("""
        x = np.zeros(8)
        for call in (lambda: lib.negative(-3, x), lambda: lib.overlapping(x)):
            try:
                call()
            except omp2gpu.OffloadError as error:
                print(type(error).__name__, str(error).split(": ", 1)[0], "|", str(error).rsplit(": ", 1)[-1])
        print(lib.scale(8, 3.0, np.ones(8)))          # the runtime still works
    """, OMP2GPU_DEVICES="cpu")
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    assert lines[0] == "OffloadError negative() | an array section's length is negative", lines
    assert lines[1].startswith("OffloadError overlapping() |") and "OpenMP 4.5 2.15.5" in lines[1], lines
    assert lines[2] == "1"


@pytest.mark.no_gpu
def test_mandatory_without_a_device_is_an_exception():
    done = python("""
        try:
            lib.scale(2, 2.0, np.ones(2))
        except omp2gpu.OffloadError as error:
            print(error)
    """, OMP2GPU_DEVICES="gpu", OMP_TARGET_OFFLOAD="MANDATORY")
    assert done.stdout == "scale(): OMP_TARGET_OFFLOAD=MANDATORY but no device is available\n", done.stderr


@pytest.mark.gpu
def test_numpy_arrays_on_the_gpu():
    done = python("""
        x = np.arange(6.0)
        print(lib.scale(6, 2.0, x), x.tolist())
    """, OMP2GPU_DEVICES="gpu", OMP_TARGET_OFFLOAD="MANDATORY")
    assert done.stdout == "1 [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]\n", done.stderr
