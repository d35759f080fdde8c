"""omp2gpu.load on the C offload runtime: a shared
library linked against the process's one libomp2gpu.so, called with NumPy arrays, whose
offload errors are omp2gpu.OffloadError exceptions instead of an exit of the interpreter.
Each case runs in a fresh interpreter: the runtime reads its environment once."""

from __future__ import annotations

import os
import re
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
    void short_array(int n, double *x, double *y) {
        #pragma omp target data map(tofrom: x[0:n])
        {
            #pragma omp target teams distribute parallel for map(tofrom: y[0:2*n])
            for (int i = 0; i < 2 * n; i++) y[i] += x[i % n];
        }
    }
    void view(int n, double *whole, double *part) {
        #pragma omp target map(tofrom: part[0:n])
        part[n - 1] += 10.0;
    }
    void update(int n, double *x, int present) {
        if (present) {
            #pragma omp target update to(present: x[0:n])
        } else {
            #pragma omp target update to(x[0:n])
        }
    }
    void overlapping(double *x) {
        #pragma omp target data map(to: x[0:4])
        {
            #pragma omp target map(tofrom: x[2:4])
            x[2] += 1.0;
        }
    }
    ''')
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
        again = omp2gpu.load(source=twice)
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


def test_an_update_of_an_unmapped_array_is_an_exception_only_where_it_must_be_present():
    """OpenMP 5.1 (2.14.6): a `target update` of a list item not present assigns nothing; with
    the `present` motion modifier it is an error, which the call raises."""
    done = python("""
        x = np.zeros(4)
        print(lib.update(4, x, 0))
        try:
            lib.update(4, x, 1)
        except omp2gpu.OffloadError as error:
            print(type(error).__name__, str(error).split(": ", 1)[0], "|", str(error).rsplit(": ", 1)[-1])
        print(lib.scale(4, 2.0, np.ones(4)))          # the runtime still works
    """, OMP2GPU_DEVICES="cpu")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["None", "OffloadError update() | the 'present' modifier needs host range "
                                        + done.stdout.split("needs host range ")[1].splitlines()[0], "1"], done.stdout


@pytest.mark.parametrize("device", ["cpu", "host"])
def test_a_section_longer_than_the_array_passed_is_an_exception(device):
    """y[0:2*n] of a 4-element y: refused before any copy, naming the parameter; nothing of
    the call runs after it (y untouched, not even on the host), and x, which the enclosing
    target data mapped, is not left mapped. A section inside a longer array passed too (the
    view's base) is good."""
    environ = {"OMP2GPU_DEVICES": "cpu"} if device == "cpu" else {"OMP_TARGET_OFFLOAD": "DISABLED"}
    done = python("""
        x, y = np.ones(4), np.zeros(4)
        try:
            lib.short_array(4, x, y)
        except omp2gpu.OffloadError as error:
            print(str(error).split(": ", 1)[0], "|", str(error).split(": ", 2)[-1].split(" (")[0])
            print(str(error).split(" runs past ", 1)[1])
        print(y.tolist())
        x[:] = 5.0
        print(lib.scale(4, 2.0, x), x.tolist())
        whole = np.arange(4.0)
        lib.view(4, whole, whole[:2])
        print(whole.tolist())
    """, **environ)
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    assert lines[0] == "short_array() | map entry 1 'y[0:2*n]'", lines
    assert re.fullmatch(r"the array passed as 'y' \(32 bytes at 0x[0-9a-f]+\): a map section is longer than "
                        r"the array", lines[1]), lines
    assert lines[2:] == ["[0.0, 0.0, 0.0, 0.0]", f"{int(device == 'cpu')} [10.0, 10.0, 10.0, 10.0]",
                         "[0.0, 1.0, 2.0, 13.0]"], lines


@pytest.mark.no_gpu
def test_mandatory_without_a_device_is_an_exception():
    done = python("""
        try:
            lib.scale(2, 2.0, np.ones(2))
        except omp2gpu.OffloadError as error:
            print(error)
    """, OMP2GPU_DEVICES="gpu", OMP_TARGET_OFFLOAD="MANDATORY")
    assert done.stdout.startswith("scale(): no device is available, and target regions must run on one "
                                  "(OMP_TARGET_OFFLOAD=MANDATORY, OMP2GPU_DEVICES=gpu): no GPU: "), done.stderr


@pytest.mark.gpu
def test_numpy_arrays_on_the_gpu():
    done = python("""
        x = np.arange(6.0)
        print(lib.scale(6, 2.0, x), x.tolist())
    """, OMP2GPU_DEVICES="gpu", OMP_TARGET_OFFLOAD="MANDATORY")
    assert done.stdout == "1 [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]\n", done.stderr


def test_device_memory_lent_to_the_c_present_table(tmp_path):
    """Device memory (here the CPU device's, from omp_target_alloc) lent for a call
    (runtime/offload/python_calls.c's begin and end, which a CFunction's call makes) is
    present as itself: the region maps
    it without a copy and writes it in place; two overlapping arrays are lent as one range
    (apart, the second would lie partly in the first's); after the call nothing is left
    lent (the whole range lends again); memory the device does not hold is refused,
    naming the device."""
    done = python("""
        import ctypes, os, struct
        from omp2gpu import native_link
        runtime = native_link.shared_runtime()
        begin, end = getattr(runtime, "__omp2gpu_call_begin"), getattr(runtime, "__omp2gpu_call_end")
        def records(*fields):
            return struct.pack(f"{len(fields)}Q", *fields)
        device = omp2gpu.load(source='''
        #include <omp.h>
        void *device_buffer(int n) { return omp_target_alloc(n * sizeof(double), omp_get_default_device()); }
        void add_one(int n, double *x) {
            #pragma omp target teams distribute parallel for map(tofrom: x[0:n])
            for (int i = 0; i < n; i++) x[i] += 1.0;
        }
        void to_host(int n, double *host, double *d) {
            omp_target_memcpy(host, d, n * sizeof(double), 0, 0, omp_get_initial_device(), omp_get_default_device());
        }
        ''')
        handle = device._loaded.handle
        handle.device_buffer.restype = ctypes.c_void_p
        buffer = handle.device_buffer(4)
        ctypes.memset(buffer, 0, 32)
        name = ctypes.c_char_p(b"x")
        x = ctypes.cast(name, ctypes.c_void_p).value
        overlapping = records(buffer, 16, x, 1, buffer + 8, 16, x, 1)
        begun = begin(2, overlapping)
        handle.add_one(2, ctypes.c_void_p(buffer))
        handle.add_one(2, ctypes.c_void_p(buffer))
        pending = end(2, overlapping)
        whole = records(buffer, 32, x, 1)
        again = begin(1, whole)
        end(1, whole)
        out = np.zeros(4)
        handle.to_host(4, out.ctypes.data_as(ctypes.c_void_p), ctypes.c_void_p(buffer))
        print(begun, pending, again, out.tolist(), not os.path.exists(os.environ["OMP2GPU_COPY_LOG"]))
        host = records(out.ctypes.data, 32, x, 1)
        print(begin(1, host), native_link.call_why().split(" is not on ")[1])
    """, OMP2GPU_DEVICES="cpu", OMP_NUM_THREADS="2", OMP2GPU_COPY_LOG=str(tmp_path / "copies"))
    assert done.stdout == ("0 0 0 [2.0, 2.0, 0.0, 0.0] True\n"
                           "-1 device 0 (CPU device (2 workers)), where target regions run\n"), done.stderr


@pytest.mark.gpu
def test_cupy_arrays_lent_on_the_gpu():
    cupy = pytest.importorskip("cupy")
    del cupy
    done = python("""
        import cupy
        x = cupy.arange(6, dtype=cupy.float64)
        print(lib.scale(6, 2.0, x), x.get().tolist())
    """, OMP2GPU_DEVICES="gpu", OMP_TARGET_OFFLOAD="MANDATORY")
    assert done.stdout == "1 [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]\n", done.stderr


@pytest.mark.gpu
def test_a_section_longer_than_the_cupy_array_passed_is_an_exception():
    cupy = pytest.importorskip("cupy")
    del cupy
    done = python("""
        import cupy
        x, y = cupy.ones(4), cupy.zeros(4)
        try:
            lib.short_array(4, x, y)
        except omp2gpu.OffloadError as error:
            print(str(error).split(" runs past ", 1)[1].split(" (")[0])
        print(y.get().tolist())
    """, OMP2GPU_DEVICES="gpu", OMP_TARGET_OFFLOAD="MANDATORY")
    assert done.stdout == "the array passed as 'y'\n[0.0, 0.0, 0.0, 0.0]\n", done.stderr
