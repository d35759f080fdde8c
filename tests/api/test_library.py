"""omp2gpu.load: a C file's external functions called from Python, target regions on
the CPU device (CI's device), compile errors located, each load its own kernels."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from api_harness import SESSION_DEVICE

import omp2gpu
from omp2gpu.diagnostics import CompileError


def test_target_regions_run_on_the_device_with_map_semantics(saxpy_library):
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    saxpy_library.saxpy(1000, 2.0, x, y)
    np.testing.assert_array_equal(y, 2 * np.arange(1000, dtype=np.float32) + 1)
    assert saxpy_library.dot(1000, np.arange(1000.0), np.ones(1000)) == sum(range(1000))
    assert saxpy_library.on_device() == 1
    if SESSION_DEVICE == "cpu":
        assert omp2gpu.target_device() == "cpu"
        assert omp2gpu.target_device(described=True).startswith("CPU device (")
    else:                                   # the GPU's own name ("NVIDIA H200"), as the profile gives it
        assert omp2gpu.target_device() not in ("cpu", "host")
        assert omp2gpu.target_device(described=True).startswith("GPU 0 (")


def test_scalars_convert_to_their_c_types(saxpy_library):
    assert saxpy_library.twice_plus(20, 255, True) == 40 + 255 + 1
    assert saxpy_library.twice_plus(np.int64(-3), np.uint8(1), 0) == -5


def test_a_library_lists_only_its_external_functions(saxpy_library):
    assert list(saxpy_library.functions) == ["saxpy", "dot", "on_device", "twice_plus", "fill", "sum_pairs"]
    assert "saxpy" in dir(saxpy_library) and "twice" not in dir(saxpy_library)
    with pytest.raises(AttributeError, match="no external function 'twice'"):
        _ = saxpy_library.twice
    assert saxpy_library["saxpy"] is saxpy_library.saxpy


def test_functions_python_cannot_call_say_why_when_looked_up(saxpy_library):
    with pytest.raises(TypeError, match=r"by_value\(\): parameter 'p' is 'struct pair'"):
        _ = saxpy_library.by_value
    with pytest.raises(TypeError, match=r"varargs\(\) takes a variable number of arguments"):
        saxpy_library["varargs"]


def test_the_signature_is_the_c_prototype(saxpy_library):
    assert saxpy_library.saxpy.signature == "void saxpy(int n, float a, const float *x, float *y)"
    assert saxpy_library.on_device.signature == "int on_device(void)"
    assert saxpy_library.saxpy.__doc__.startswith("void saxpy(")


def test_load_a_file_with_flags(tmp_path, monkeypatch):
    path = tmp_path / "scale.c"
    path.write_text("double scale(double v) { return FACTOR * v; }\n")
    library = omp2gpu.load(path, flags=("-O1", "-DFACTOR=3"))
    assert library.scale(2.0) == 6.0
    assert library.path == str(path)


def test_a_file_loaded_again_gets_kernels_of_its_own(tmp_path, monkeypatch):
    """The launcher knows kernels by name for the whole process: the second load's
    regions must not run the first one's code."""
    path = tmp_path / "value.c"
    source = """
        int value(void) {{
            int v = 0;
            #pragma omp target map(from: v)
            v = {};
            return v;
        }}
    """
    path.write_text(source.format(1))
    first = omp2gpu.load(path)
    path.write_text(source.format(2))
    second = omp2gpu.load(path)
    assert (first.value(), second.value()) == (1, 2)


def test_a_compile_error_is_located_with_the_line_and_a_caret(monkeypatch):
    with pytest.raises(CompileError) as error:
        omp2gpu.load(source="int f(void) {\n    return missing;\n}\n")
    assert error.value.location.line == 2
    lines = str(error.value).splitlines()
    assert lines[0] == "<source>:2:12: error: use of undeclared identifier 'missing'"
    assert lines[1:] == ["    return missing;", "           ^"]


def test_bad_calls_to_load(tmp_path):
    with pytest.raises(TypeError, match="a path or source"):
        omp2gpu.load()
    with pytest.raises(TypeError, match="a path or source"):
        omp2gpu.load(tmp_path / "a.c", source="int f(void);")
    with pytest.raises(ValueError, match="unrecognized arguments: --fast"):
        omp2gpu.load(source="int f(void) { return 0; }", flags=("--fast",))
    with pytest.raises(TypeError, match="sequence of strings"):
        omp2gpu.load(source="int f(void) { return 0; }", flags="-O3")
    with pytest.raises(CompileError, match="no such file"):
        omp2gpu.load(tmp_path / "missing.c")


def test_any_buffer_passes_to_a_void_pointer(saxpy_library):
    data = bytearray(6)
    saxpy_library.fill(data, len(data))
    assert list(data) == [0, 1, 2, 3, 4, 5]
    words = (ctypes.c_uint16 * 2)()
    saxpy_library.fill(words, 4)
    assert bytes(words) == bytes([0, 1, 2, 3])


def test_struct_pointers_take_records_of_the_struct_size(saxpy_library):
    pairs = np.array([(1, 0.5), (2, 0.25)], dtype=[("a", "i4"), ("b", "f8")])   # padded as in C
    pairs = pairs.astype(np.dtype({"names": ["a", "b"], "formats": ["i4", "f8"], "offsets": [0, 8],
                                   "itemsize": 16}))
    assert saxpy_library.sum_pairs(pairs, 2) == 3.75


def test_the_target_device_is_the_runtimes_default_device(saxpy_library):
    assert saxpy_library.on_device() == 1
    name, described = omp2gpu.target_device(), omp2gpu.target_device(described=True)
    if SESSION_DEVICE == "cpu":
        assert (name, described[:12]) == ("cpu", "CPU device (")
    else:
        assert name not in ("cpu", "host") and described == f"GPU 0 ({name})"


def test_host_offloading_disabled_runs_the_regions_on_the_host():
    """In a child process: this one's runtime read its environment already."""
    script = textwrap.dedent("""
        import omp2gpu
        library = omp2gpu.load(source="#include <omp.h>\\nint on_host(void) { int h = 0;\\n"
                                      "#pragma omp target map(from: h)\\nh = omp_is_initial_device();\\nreturn h; }\\n")
        print(library.on_host(), omp2gpu.target_device(), omp2gpu.target_device(described=True))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "OMP_TARGET_OFFLOAD": "DISABLED"})
    assert (done.returncode, done.stdout) == (0, "1 host host\n"), done.stderr


def test_source_errors_name_source_and_cxx_is_refused(tmp_path):
    """load(source=...)'s errors and repr name `<source>`, not a temporary file; a C++
    file is refused by name; omp2gpu.CompileError is the exception, and dir() lists it."""
    import omp2gpu

    with pytest.raises(omp2gpu.CompileError) as caught:
        omp2gpu.load(source="int f(void) { return undeclared; }\n")
    assert str(caught.value).startswith("<source>:1:"), str(caught.value)
    assert "omp2gpu-" not in str(caught.value)
    assert repr(omp2gpu.load(source="int g(void) { return 1; }\n")).startswith("<omp2gpu.Library '<source>'")
    (tmp_path / "x.cpp").write_text("int f() { return 0; }\n")
    with pytest.raises(omp2gpu.CompileError, match="x.cpp is C..; omp2gpu compiles C"):
        omp2gpu.load(tmp_path / "x.cpp")
    assert {"load", "CompileError", "OffloadError", "Library", "target_device"} <= set(dir(omp2gpu))


def test_warnings_are_each_loads_own(capfd):
    """-w silences that load's warnings, not the next load's (CompileOptions.warnings_enabled)."""
    source = "twice(x) { return 2 * x; }\n"          # K&R: return type defaults to 'int'
    assert omp2gpu.load(source=source, flags=("-w",)).twice(4) == 8
    assert "warning" not in capfd.readouterr().err
    assert omp2gpu.load(source=source).twice(5) == 10
    assert "warning: return type of 'twice' defaults to 'int'" in capfd.readouterr().err


def test_a_bad_cpu_schedule_is_an_error_naming_the_variable(monkeypatch):
    monkeypatch.setenv("OMP2GPU_CPU_SCHEDULE", "fastest")
    with pytest.raises(CompileError, match=r"OMP2GPU_CPU_SCHEDULE=fastest: unknown CPU schedule policy 'fastest' "
                                           r"\(choose from static, dynamic, guided, steal\)"):
        omp2gpu.load(source="int f(void) { return 0; }\n")


# Every scalar kind, and more of them than the registers that pass them (6 integer, 8 SSE
# on x86-64), through the one call a Python call makes (targets/python_call_wrappers.py):
# the wrapper's own parameters come after the function's, which it passes on as received.
MANY_SCALARS = r"""
#include <complex.h>
#include <stdbool.h>
signed char narrow(signed char c, unsigned short s, bool b) { return (signed char)(c - (b ? s : 0)); }
double spread(int a, double x, long b, float y, short c, double z, unsigned d, double w, long long e,
              double v, char f, double u, int g, double t, double s, int h) {
    return a + x * 2 + b * 3 + y * 4 + c * 5 + z * 6 + d * 7 + w * 8 + e * 9 + v * 10 + f * 11
           + u * 12 + g * 13 + t * 14 + s * 15 + h * 16;
}
double complex rotate(double complex z, float complex w, int n) { return z * I * n + w; }
int *shifted(int *p, long by) { return p ? p + by : 0; }
double widen(float f, long double x) { return f + (double)x; }
float complex half(float complex z) { return z / 2; }
void nothing(void) {}
"""


def test_scalars_of_every_kind_and_beyond_the_registers_pass_as_c_passes_them():
    library = omp2gpu.load(source=MANY_SCALARS)
    assert library.narrow(-3, 2, True) == -5 and library.narrow(100, 500, False) == 100
    arguments = [1, 0.5, -2, 1.25, 3, 0.75, 4, -1.5, 5, 2.0, 6, 0.25, 7, 3.5, -4.0, 8]
    expected = sum(value * weight for weight, value in enumerate(arguments, 1))
    assert library.spread(*arguments) == pytest.approx(expected)
    assert library.rotate(1 + 2j, 0.5 - 1j, 3) == pytest.approx(-6 + 3j + 0.5 - 1j)
    assert library.shifted(None, 4) is None
    numbers = np.arange(4, dtype=np.intc)
    assert library.shifted(numbers, 2) == numbers.ctypes.data + 8     # a pointer result: its address
    assert library.widen(1.5, 2.25) == 3.75 and library.widen(1e39, 1) == float("inf")   # float's range
    assert library.widen(np.float32(0.5), 1e300) == 1e300                 # a long double parameter
    assert library.half(3 - 1j) == 1.5 - 0.5j
    assert library.nothing() is None
