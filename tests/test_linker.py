"""Linking several translation units (omp2gpu/linker.py): the C linker's messages,
static names kept apart on the host and the device, and the linked device code of
the multi-file corpus programs assembled by ptxas for both GPU schemes."""

from __future__ import annotations

from pathlib import Path

import pytest

from omp2gpu.offload.abi import WIDE_TWIN_SUFFIX
from omp2gpu.targets.nvptx import ptxas
from omp2gpu.tools import cli

PROGRAMS = Path(__file__).resolve().parent / "programs"
MULTI_FILE = sorted(d for d in PROGRAMS.iterdir() if d.is_dir() and any(d.glob("*.c")))


@pytest.fixture
def workspace(monkeypatch, tmp_path):
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _write(directory: Path, files: dict) -> list[str]:
    for name, text in files.items():
        (directory / name).write_text(text)
    return list(files)


@pytest.mark.parametrize("files, message", [
    ({"a.c": "int x = 1;\nint main(void) { return x; }\n", "b.c": "int x = 2;\n"},
     "b.c: multiple definition of 'x'; a.c: first defined here"),
    ({"a.c": "int f(void);\nint main(void) { return f(); }\n", "b.c": "int g(void) { return 0; }\n"},
     "a.c: undefined reference to 'f'"),
    ({"a.c": "extern int nowhere;\nint main(void) { return nowhere; }\n", "b.c": "int g;\n"},
     "a.c: undefined reference to 'nowhere'"),
    ({"a.c": "int f(void) { return 0; }\n", "b.c": "int g(void) { return 0; }\n"},
     "the linked program: undefined reference to 'main'"),
    ({"a.c": "double plain(double x) { return x; }\n",
      "b.c": "double plain(double);\nint main(void) { double y = 0;\n"
             "#pragma omp target map(tofrom: y)\n  y = plain(2.0);\n  return (int)y; }\n"},
     "b.c: undefined reference to 'plain' in device code"),
], ids=["multiple-definition", "undefined-function", "undefined-variable", "no-main", "not-declare-target"])
def test_link_errors_as_a_linker_says_them(workspace, capsys, files, message):
    assert cli.main(["run", "--device", "cpu", *_write(workspace, files)]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_static_functions_of_one_name_stay_apart(workspace, capfd):
    files = {
        "a.c": "#pragma omp declare target\nstatic int id(void) { return 1; }\n#pragma omp end declare target\n"
               "int from_a(void) { int r = 0;\n#pragma omp target map(tofrom: r)\n  r = id();\n  return r; }\n",
        "b.c": "#pragma omp declare target\nstatic int id(void) { return 2; }\n#pragma omp end declare target\n"
               "int from_a(void);\nint main(void) { int r = 0;\n#pragma omp target map(tofrom: r)\n  r = id();\n"
               "  return 10 * from_a() + r; }\n",
    }
    for device in ("host", "cpu"):
        assert cli.main(["run", "--device", device, *_write(workspace, files)]) == 12


@pytest.mark.parametrize("scheme", ["combined", "control-loop"])
@pytest.mark.parametrize("program", MULTI_FILE, ids=[d.name for d in MULTI_FILE])
def test_linked_device_code_assembles(workspace, program, scheme):
    assert cli.main(["compile", "-S", "--scheme", scheme, *map(str, sorted(program.glob("*.c"))),
                     "-o", "prog.ptx"]) == 0
    ptx = (workspace / "prog.ptx").read_text()
    kernels = [line for line in ptx.splitlines()            # wide-register twins are copies, not kernels
               if line.startswith(".visible .entry") and not line.endswith(f"{WIDE_TWIN_SUFFIX}(")]
    assert len(kernels) == sum(text.count("#pragma omp target teams") for text in
                               (p.read_text() for p in program.glob("*.c")))
    if ptxas.find_ptxas() is None:
        pytest.skip("no ptxas")
    assert ptxas.assemble(ptx, "sm_90")[:4] == b"\x7fELF"
