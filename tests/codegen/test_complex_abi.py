"""Complex values across calls with gcc-built code (the x86-64 SysV ABI): a shared
library built by gcc takes and returns float complex (packed in one SSE register),
double complex (two) and long double complex (memory, returned in st0:st1), and calls
back functions omp2gpu compiled; the program omp2gpu runs prints what gcc's build
prints. A double complex argument the ABI would put in memory after 7 registers'
worth is a located error, not a wrong value."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from host_programs import REPO_ROOT

PEER = r"""
#include <complex.h>
float complex peer_twice_f(float complex z, float s) { return z * 2.0f * s; }
double complex peer_rotate(double complex z) { return z * I; }
long double complex peer_conj_l(long double complex z) { return conjl(z) + 1.0L; }
double peer_mix(int n, double complex a, float complex b, long double complex c, double complex d,
                double complex e, double g, long double complex h) {
    return n + creal(a) + 2 * cimag(a) + 4 * crealf(b) + 8 * cimagf(b) + 16 * creall(c) + 32 * cimagl(c)
           + 64 * creal(d) + 128 * cimag(d) + 256 * creal(e) + 512 * cimag(e) + 1024 * g
           + 2048 * creall(h) + 4096 * cimagl(h);
}
float complex peer_call_f(float complex (*g)(float complex), float complex z) { return g(z) + 1.0f; }
double complex peer_call_d(double complex (*g)(double complex, double complex), double complex z) {
    return g(z, 2.0 * z);
}
long double complex peer_call_l(long double complex (*g)(long double complex, double), long double complex z) {
    return g(z, 0.5) * 2.0L;
}
"""

MAIN = r"""
#include <complex.h>
#include <stdio.h>
float complex peer_twice_f(float complex z, float s);
double complex peer_rotate(double complex z);
long double complex peer_conj_l(long double complex z);
double peer_mix(int n, double complex a, float complex b, long double complex c, double complex d,
                double complex e, double g, long double complex h);
float complex peer_call_f(float complex (*g)(float complex), float complex z);
double complex peer_call_d(double complex (*g)(double complex, double complex), double complex z);
long double complex peer_call_l(long double complex (*g)(long double complex, double), long double complex z);
static float complex swap_f(float complex z) { return cimagf(z) + I * crealf(z); }
static double complex sum_d(double complex a, double complex b) { return a + b; }
static long double complex scale_l(long double complex z, double s) { return z * s; }
int main(void) {
    float complex a = peer_twice_f(1.5f + 2.5f * I, 3.0f);
    double complex b = peer_rotate(1.0 + 2.0 * I);
    long double complex c = peer_conj_l(3.0L + 4.0L * I);
    double m = peer_mix(1, 1.0 + 1.0 * I, 1.0f + 1.0f * I, 1.0L + 1.0L * I, 1.0 + 1.0 * I, 1.0 + 1.0 * I,
                        1.0, 1.0L + 1.0L * I);
    float complex d = peer_call_f(swap_f, 1.0f + 2.0f * I);
    double complex e = peer_call_d(sum_d, 0.5 - 0.25 * I);
    long double complex f = peer_call_l(scale_l, 8.0L - 4.0L * I);
    printf("%g%+gi %g%+gi %Lg%+Lgi %g %g%+gi %g%+gi %Lg%+Lgi\n", crealf(a), cimagf(a), creal(b), cimag(b),
           creall(c), cimagl(c), m, crealf(d), cimagf(d), creal(e), cimag(e), creall(f), cimagl(f));
    return 0;
}
"""

SPLIT = r"""
#include <complex.h>
double peer_many(double a, double b, double c, double d, double e, double f, double g, double complex h);
int main(void) { return (int)peer_many(1, 2, 3, 4, 5, 6, 7, 8.0 + 1.0 * I); }
"""

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


def _omp2gpu(tmp_path, source: str, *extra: str) -> subprocess.CompletedProcess:
    path = tmp_path / "main.c"
    path.write_text(source)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", "host", str(path), *extra],
                          capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)


@needs_gcc
def test_complex_arguments_and_results_cross_into_gcc_code(tmp_path):
    (tmp_path / "peer.c").write_text(PEER)
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "peer.c", "-o", "libpeer.so"], cwd=tmp_path, check=True)
    (tmp_path / "ref.c").write_text(MAIN)
    subprocess.run(["gcc", "ref.c", "-L.", "-lpeer", "-Wl,-rpath," + str(tmp_path), "-o", "ref"],
                   cwd=tmp_path, check=True)
    expected = subprocess.run([str(tmp_path / "ref")], capture_output=True, text=True, check=True).stdout
    assert expected == "9+15i -2+1i 4-4i 8192 3+1i 1.5-0.75i 8-4i\n"
    result = _omp2gpu(tmp_path, MAIN, "-L", str(tmp_path), "-l", "peer")
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected


def test_a_double_complex_argument_the_abi_puts_in_memory_is_refused(tmp_path):
    result = _omp2gpu(tmp_path, SPLIT)
    assert result.returncode == 1
    assert "main.c:4:61: error: argument 8 (double complex) of a call to the external function " \
           "'peer_many'" in result.stderr
