"""Finding main, -O pipelines, internalising a whole program, object files and assembly."""

from __future__ import annotations

import shutil
import subprocess

import llvmlite.binding as llvm
import llvmlite.ir as ir
import pytest
from host_ir_modules import I32, argv_echo_module, straight_line

from omp2gpu.targets.host.machine import prepare, target_machine
from omp2gpu.targets.host.optimisation import emit_assembly, find_main, internalise, object_code, optimise


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_optimise_every_level(level):
    ref = optimise(argv_echo_module(), level)
    assert ref.triple == target_machine().triple
    assert ref.data_layout
    ref.verify()


def test_optimise_folds_constants():
    m = ir.Module("fold")
    main = ir.Function(m, ir.FunctionType(I32, []), "main")
    b = ir.IRBuilder(main.append_basic_block())
    slot = b.alloca(I32)
    b.store(I32(20), slot)
    b.ret(b.add(b.load(slot), I32(22)))
    text = str(optimise(m, 2))
    assert "ret i32 42" in text and "alloca" not in text


def test_optimise_rejects_bad_level():
    with pytest.raises(ValueError):
        optimise(argv_echo_module(), 4)


def test_emit_assembly_names_main():
    assert "main:" in emit_assembly(optimise(argv_echo_module(), 2))


def linked_run(module, folder, *args: str) -> subprocess.CompletedProcess:
    """`module`'s object file linked by the system's C compiler, run with `args`."""
    obj = object_code(module)
    assert obj[:4] == b"\x7fELF"
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to link the object file with")
    (folder / "prog.o").write_bytes(obj)
    subprocess.run([cc, str(folder / "prog.o"), "-o", str(folder / "prog"), "-lm"], check=True)
    return subprocess.run([str(folder / "prog"), *args], capture_output=True, text=True)


def test_object_code_links_and_runs(tmp_path):
    done = linked_run(optimise(argv_echo_module(), 2), tmp_path, "x")
    assert done.returncode == 42
    assert done.stdout.splitlines() == ["argc=2", f"argv[0]={tmp_path / 'prog'}", "argv[1]=x"]


def test_internalise_drops_what_main_does_not_reach(tmp_path):
    m = argv_echo_module()
    straight_line(m, "unused", 10, linkage="")
    ref = prepare(m)
    internalise(ref)
    names = {f.name for f in ref.functions if not f.is_declaration}
    assert names == {"main"}
    done = linked_run(optimise(ref, 2), tmp_path)
    assert done.returncode == 41
    assert done.stdout == f"argc=1\nargv[0]={tmp_path / 'prog'}\n"


def test_find_main_only_finds_a_definition():
    assert find_main(prepare(argv_echo_module())).name == "main"
    m = ir.Module("library")
    ir.Function(m, ir.FunctionType(I32, []), "main")  # declared, not defined
    assert find_main(prepare(m)) is None
    assert find_main(prepare(ir.Module("empty"))) is None


REASSOCIABLE_SUM = """
define double @sum5(double %a, double %b, double %c, double %d, double %e) {
  %1 = fadd reassoc nsz double %a, %b
  %2 = fadd reassoc nsz double %1, %c
  %3 = fadd reassoc nsz double %2, %d
  %4 = fadd reassoc nsz double %3, %e
  ret double %4
}
"""


def _adds(reassociating: bool) -> list[str]:
    text = emit_assembly(llvm.parse_assembly(REASSOCIABLE_SUM), 2, reassociating)
    return [line.split()[1] for line in text.splitlines() if line.strip().startswith(("vaddsd", "addsd"))]


def test_the_machine_combiner_runs_only_where_fast_math_may_reassociate():
    """A fast-math chain of adds is made a tree (two independent adds) with the combiner on,
    and left a chain without it; each module sets it anew, whatever the one before did."""
    chain, tree = _adds(False), _adds(True)
    assert len(chain) == len(tree) == 4
    assert chain != tree
    assert _adds(False) == chain
