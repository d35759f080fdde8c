"""driver.py: a target region the GPU build cannot run is known before the host code is
final, so the host never launches a kernel that was not built (issue 13: such a launch
failed, and under the default policy marked the whole device unusable)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from omp2gpu import driver
from omp2gpu.pipeline import CompileOptions

REPO = Path(__file__).resolve().parents[1]

PROGRAM = textwrap.dedent("""\
    #include <stdio.h>
    int main(void)
    {
        long double wide = 1.0L;
        double a[64];
        int i;
    #pragma omp target map(tofrom: wide)
        wide = wide / 3;
    #pragma omp target teams distribute parallel for map(from: a)
        for (i = 0; i < 64; i++)
            a[i] = i;
        printf("%.6Lf %.1f\\n", wide, a[63]);
        return 0;
    }
    """)


def test_a_region_the_gpu_build_refuses_is_not_launched(tmp_path):
    source = tmp_path / "demoted.c"
    source.write_text(PROGRAM)
    translation = driver.translate(source, CompileOptions(), cpu=True)
    refused, built = "__omp_offloading_main_l7", "__omp_offloading_main_l9"
    host_ir = str(translation.host)
    assert refused not in host_ir and built in host_ir
    assert [region.kernel_name for region in translation.device.kernels] == [built]
    assert "long double" in "\n".join(translation.device.remarks)
    assert [kernel.kernel_name for kernel in translation.cpu.kernels] == [built]


def test_a_region_the_host_runs_instead_asks_the_launcher_for_the_device_data(tmp_path):
    """The refused region reads and leaves the device data environment's values: the
    launcher's host-region calls (offload/abi.py) surround its host code, with its device."""
    source = tmp_path / "demoted.c"
    source.write_text(PROGRAM.replace("#pragma omp target map(tofrom: wide)",
                                      "#pragma omp target map(tofrom: wide) device(0)"))
    host_ir = str(driver.translate(source, CompileOptions()).host)
    main = host_ir[host_ir.index('define i32 @"main"'):]
    begin = main.index('call void @"__omp2gpu_host_region_begin"(i64')
    end = main.index('call void @"__omp2gpu_host_region_end"(i64')
    assert begin < main.index("fdiv x86_fp80") < end        # wide / 3, on the host, between them
    assert main.index('@"__omp2gpu_target"') > end          # the next region is launched


# --- the machine code cache (targets/host/machine_code_cache.py) as `run` uses it ------

CACHED_PROGRAM = textwrap.dedent("""\
    #include <stdio.h>
    #include "scale.h"
    #ifndef OFFSET
    #define OFFSET 0
    #endif
    int main(void)
    {
        double sum = 0;
        int i;
    #pragma omp parallel for reduction(+: sum)
        for (i = 0; i < 100; i++)
            sum += SCALE * i + OFFSET;
        printf("%.1f\\n", sum);
        return 0;
    }
    """)


def _run_command(folder, *flags: str, **env: str) -> dict:
    """Popen's arguments for `omp2gpu run [flags] prog.c` in `folder`, a fresh process
    with the cache in folder/cache."""
    return {"args": [sys.executable, "-m", "omp2gpu", "run", *flags, "prog.c"], "cwd": folder, "text": True,
            "env": {**os.environ, "PYTHONPATH": str(REPO), "OMP2GPU_CACHE_DIR": str(folder / "cache"),
                    **env}}


def _cached_run(folder, *flags: str, **env: str):
    """(the program's output, whether its native executable came from the cache: no -O
    pipeline ran)."""
    done = subprocess.run(**_run_command(folder, *flags, OMP2GPU_TIME_STAGES="1", **env),
                          capture_output=True, check=True)
    stages = next(line for line in done.stderr.splitlines() if "stage times" in line)
    return done.stdout, '"optimise"' not in stages


def _entries(folder) -> list:
    """The cached native executables (native_link.cached_executable)."""
    return sorted((folder / "cache" / "native").glob("*/prog"))


@pytest.fixture
def cached_program(tmp_path):
    (tmp_path / "prog.c").write_text(CACHED_PROGRAM)
    (tmp_path / "scale.h").write_text("#define SCALE 2\n")
    return tmp_path


def test_a_rerun_takes_the_executable_from_the_cache(cached_program):
    assert _cached_run(cached_program) == ("9900.0\n", False)
    assert _cached_run(cached_program) == ("9900.0\n", True)
    assert len(_entries(cached_program)) == 1


def test_a_changed_header_a_define_or_an_opt_level_misses(cached_program):
    assert _cached_run(cached_program) == ("9900.0\n", False)
    (cached_program / "scale.h").write_text("#define SCALE 3\n")
    assert _cached_run(cached_program) == ("14850.0\n", False)
    assert _cached_run(cached_program, "-DOFFSET=1") == ("14950.0\n", False)
    assert _cached_run(cached_program, "-O1") == ("14850.0\n", False)
    assert _cached_run(cached_program, "-O1") == ("14850.0\n", True)
    assert len(_entries(cached_program)) == 4


def test_another_processor_misses(cached_program):
    """The processor code is made for is part of the key: a cache shared by machines of
    different processors (a home directory on a cluster) never hands one the other's code."""
    assert _cached_run(cached_program) == ("9900.0\n", False)
    assert _cached_run(cached_program, "-march=x86-64") == ("9900.0\n", False)
    assert _cached_run(cached_program, "-march=x86-64") == ("9900.0\n", True)
    assert len(_entries(cached_program)) == 2


def test_runs_at_once_share_the_cache_safely(cached_program):
    runs = [subprocess.Popen(**_run_command(cached_program), stdout=subprocess.PIPE) for _ in range(3)]
    assert [run.communicate()[0] for run in runs] == ["9900.0\n"] * 3
    assert len(_entries(cached_program)) == 1
    assert not list((cached_program / "cache" / "native").glob("*/.prog.*"))    # no partial link left
    assert _cached_run(cached_program) == ("9900.0\n", True)


def test_a_program_that_does_not_link_is_not_kept(cached_program):
    (cached_program / "prog.c").write_text("int missing(void);\nint main(void) { return missing(); }\n")
    done = subprocess.run(**_run_command(cached_program), capture_output=True)
    assert done.returncode == 1 and "undefined reference to 'missing'" in done.stderr
    assert not _entries(cached_program)


def test_the_options_say_whether_a_compilation_warns(tmp_path, capfd):
    """CompileOptions.warnings_enabled is the switch (-w), each compilation its own: a
    compilation without warnings leaves the next one's on, in either order."""
    source = tmp_path / "kr.c"
    source.write_text("twice(x) { return 2 * x; }\n")          # K&R: return type defaults to 'int'
    for enabled in (False, True, False):
        driver.translate(source, CompileOptions(warnings_enabled=enabled), offload=False)
        warned = "warning: return type of 'twice' defaults to 'int'" in capfd.readouterr().err
        assert warned == enabled


def test_a_compiled_programs_syntax_tree_and_llvmlite_ir_are_freed(tmp_path, monkeypatch):
    """With the collector paused (as `compile` and `run` pause it), the file's syntax tree
    and llvmlite module are freed once the program is linked: nothing keeps them (no cache
    keyed by the tree, no parser holding its tokens), and the one collection frees their
    cycles before LLVM's passes."""
    import weakref

    from pycparser import c_ast

    source = tmp_path / "prog.c"
    source.write_text("int g;\nint main(void) {\n int *p = &g;\n#pragma omp parallel\n *p += 1;\n"
                      "#pragma omp target map(tofrom: g)\n g++;\n return g;\n}\n")
    trees, modules = [], []
    real_parse, real_prepare = driver.parse_file, driver.host.prepare

    def parse_file(*arguments):
        tree = real_parse(*arguments)
        trees.append(weakref.ref(tree))
        return tree
    monkeypatch.setattr(driver, "parse_file", parse_file)
    monkeypatch.setattr(driver.host, "prepare",
                        lambda module: modules.append(weakref.ref(module)) or real_prepare(module))
    with driver.collector_paused():
        program = driver.compile_program(source, driver.CompileOptions(), whole_program=True)
        assert trees and all(isinstance(tree, weakref.ref) for tree in trees)
        assert [tree() for tree in trees] == [None] * len(trees)
        assert modules and modules[0]() is None          # the file's llvmlite module
    assert program.host is not None and not isinstance(program.host, c_ast.Node)
