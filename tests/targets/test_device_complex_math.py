"""runtime/device/complex_math.c, the GPU's <complex.h> functions, checked where no
GPU is: gcc builds the same file for this machine with libdevice's __nv_* names bound
to glibc's real functions (objcopy), its functions renamed dev_*, and a driver
compares each with glibc's over a grid of arguments (signed zeros, the branch cuts,
values near 1, tiny, huge, infinite and NaN parts): the largest error relative to
|result| must stay within a few units in the last place, and which parts are NaN,
and the infinities (Annex G.6's special values), must agree."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SOURCE = REPO_ROOT / "runtime" / "device" / "complex_math.c"
UNARY = ("cexp clog csqrt csin ccos ctan csinh ccosh ctanh casin cacos catan casinh "
         "cacosh catanh cproj").split()

DRIVER = r"""
#include <complex.h>
#include <math.h>
#include <stdio.h>
#define UNARY(name) double complex dev_##name(double complex); \
    static double complex ref_##name(double complex z) { return name(z); }
%(declarations)s
double dev_cabs(double complex);
double dev_carg(double complex);
double complex dev_cpow(double complex, double complex);
float complex dev_cexpf(float complex);

static double error(double complex got, double complex want) {
    if (isnan(creal(got)) != isnan(creal(want)) || isnan(cimag(got)) != isnan(cimag(want)))
        return INFINITY;
    /* An infinite part beside a NaN one: Annex G leaves its sign unspecified. */
    if (isnan(cimag(want)) && isinf(creal(want)) && isinf(creal(got)))
        return 0;
    if (isnan(creal(want)) && isinf(cimag(want)) && isinf(cimag(got)))
        return 0;
    if (isinf(creal(got)) || isinf(creal(want)) || isinf(cimag(got)) || isinf(cimag(want)))
        return (isnan(creal(want)) || creal(got) == creal(want))
               && (isnan(cimag(want)) || cimag(got) == cimag(want)) ? 0 : INFINITY;
    double scale = cabs(want) > 0 ? cabs(want) : 1e-300, worst = 0;
    if (!isnan(creal(got)) && creal(got) != creal(want))
        worst = fmax(worst, fabs(creal(got) - creal(want)) / scale);
    if (!isnan(cimag(got)) && cimag(got) != cimag(want))
        worst = fmax(worst, fabs(cimag(got) - cimag(want)) / scale);
    return worst;
}

static double complex cx(double re, double im) {
    double complex z;
    __real__ z = re;
    __imag__ z = im;
    return z;
}

int main(void) {
    static const double parts[] = {0.0, -0.0, 0.3, -0.7, 1.0, -1.0, 2.5, -3.75, 10.0, -20.0,
                                   1e-8, 100.0, 800.0, 1e300, 1e-300, INFINITY, -INFINITY, NAN};
    const int n = sizeof parts / sizeof parts[0];
    struct { const char *name; double complex (*dev)(double complex), (*ref)(double complex); } f[] = {
%(table)s
    };
    for (unsigned k = 0; k < sizeof f / sizeof f[0]; k++) {
        double worst = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                worst = fmax(worst, error(f[k].dev(cx(parts[i], parts[j])), f[k].ref(cx(parts[i], parts[j]))));
        printf("%%s %%.3g\n", f[k].name, worst);
    }
    double worst_abs = 0, worst_arg = 0, worst_pow = 0, worst_expf = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double complex z = cx(parts[i], parts[j]);
            worst_abs = fmax(worst_abs, error(dev_cabs(z), cabs(z)));
            worst_arg = fmax(worst_arg, error(dev_carg(z), carg(z)));
            if (fabs(parts[i]) < 50 && fabs(parts[j]) < 50 && cabs(z) > 1e-3)
                worst_pow = fmax(worst_pow, error(dev_cpow(z, cx(0.5, -0.25)), cpow(z, cx(0.5, -0.25))));
            if (fabs(parts[i]) < 50 && fabs(parts[j]) < 50)
                worst_expf = fmax(worst_expf, error(dev_cexpf((float complex)z), cexpf((float complex)z)));
        }
    printf("cabs %%.3g\ncarg %%.3g\ncpow %%.3g\ncexpf %%.3g\n", worst_abs, worst_arg, worst_pow, worst_expf);
    return 0;
}
"""


def _symbols(obj: Path, kind: str) -> list[str]:
    listing = subprocess.run(["nm", str(obj)], capture_output=True, text=True, check=True).stdout
    return [line.split()[-1] for line in listing.splitlines() if line.split()[-2:-1] == [kind]]


@pytest.mark.skipif(not all(shutil.which(tool) for tool in ("gcc", "nm", "objcopy")),
                    reason="needs gcc and binutils")
def test_device_complex_functions_agree_with_glibc(tmp_path):
    obj, renamed, exe = tmp_path / "complex_math.o", tmp_path / "renamed.o", tmp_path / "driver"
    # -fno-builtin: gcc would otherwise apply its identities for the standard functions
    # (casinh is odd...) to these definitions of them.
    subprocess.run(["gcc", "-O2", "-fno-builtin", "-c", str(SOURCE), "-I", str(REPO_ROOT / "runtime" / "include"),
                    "-o", str(obj)], check=True)
    renames = [f"--redefine-sym={name}=dev_{name}" for name in _symbols(obj, "T")]
    renames += [f"--redefine-sym={name}={name[len('__nv_'):]}" for name in _symbols(obj, "U")
                if name.startswith("__nv_")]
    subprocess.run(["objcopy", *renames, str(obj), str(renamed)], check=True)
    driver = tmp_path / "driver.c"
    driver.write_text(DRIVER % {
        "declarations": "\n".join(f"UNARY({name})" for name in UNARY),
        "table": ",\n".join(f'        {{"{name}", dev_{name}, ref_{name}}}' for name in UNARY)})
    subprocess.run(["gcc", "-O1", str(driver), str(renamed), "-o", str(exe), "-lm"], check=True)
    output = subprocess.run([str(exe)], capture_output=True, text=True, check=True, timeout=60).stdout
    errors = {name: float(worst) for name, worst in (line.split() for line in output.splitlines())}
    assert set(errors) == {*UNARY, "cabs", "carg", "cpow", "cexpf"}
    for name, worst in errors.items():
        limit = 3e-7 if name == "cexpf" else 1e-14 if name == "cpow" else 1e-15
        assert worst <= limit, f"{name}: relative error {worst} against glibc"
