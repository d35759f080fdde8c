"""Machine code made in this process and a fork runs as MCJIT's does."""

from __future__ import annotations

import llvmlite.ir as ir
import pytest
from host_ir_modules import CHAR_P, I32, cstring, printf_declaration

from omp2gpu.targets.host.execution import run_main
from omp2gpu.targets.host.optimisation import optimise
from omp2gpu.targets.host.two_process_codegen import precompile


def _two_part_module() -> ir.Module:
    """main calls an internal function that prints a private string and reads an
    internal global, which a static constructor set: the pieces a split must link."""
    m = ir.Module("two_parts")
    printf = printf_declaration(m)
    counter = ir.GlobalVariable(m, I32, "counter")
    counter.linkage, counter.initializer = "internal", I32(0)
    message = cstring(m, "message", "counter=%d\n")
    message.linkage = "private"
    init = ir.Function(m, ir.FunctionType(ir.VoidType(), []), "init")
    init.linkage = "internal"
    b = ir.IRBuilder(init.append_basic_block())
    b.call(printf, [b.bitcast(cstring(m, "hello", "init\n"), CHAR_P)])   # not evaluated away
    b.store(I32(40), counter)
    b.ret_void()
    ctor_type = ir.LiteralStructType([I32, init.type, CHAR_P])
    ctors = ir.GlobalVariable(m, ir.ArrayType(ctor_type, 1), "llvm.global_ctors")
    ctors.linkage = "appending"
    ctors.initializer = ir.Constant(ctors.value_type, [ir.Constant(ctor_type, [I32(65535), init,
                                                                               ir.Constant(CHAR_P, None)])])
    add = ir.Function(m, ir.FunctionType(I32, [I32]), "add_counter")
    add.linkage = "internal"
    add.attributes.add("noinline")
    b = ir.IRBuilder(add.append_basic_block())
    value = b.load(counter)
    b.call(printf, [b.bitcast(message, CHAR_P), value])
    b.ret(b.add(add.args[0], value))
    main = ir.Function(m, ir.FunctionType(I32, []), "main")
    b = ir.IRBuilder(main.append_basic_block())
    b.ret(b.call(add, [I32(2)]))
    return m


@pytest.mark.parametrize("parallel", [False, True])
def test_precompiled_in_two_processes_runs_like_mcjit(parallel, capfd):
    ref = optimise(_two_part_module(), 2)
    code = precompile(ref, parallel=parallel)
    assert (code is not None) == parallel
    if parallel:
        assert len(code.objects) == 2 and all(code.objects)
        assert len(code.constructors) == 1 and code.constructors[0].startswith("init")
    assert run_main(ref, ["prog"], code) == 42
    assert capfd.readouterr().out == "init\ncounter=40\n"


def test_precompile_leaves_small_modules_to_mcjit():
    assert precompile(optimise(_two_part_module(), 2)) is None


def test_whole_makes_one_object_that_runs_like_mcjit(capfd):
    ref = optimise(_two_part_module(), 2)
    code = precompile(ref, parallel=False, whole=True)
    assert len(code.objects) == 1 and code.constructors == ("init",)
    assert code.imports == ("printf", "puts")   # the optimised module's: printf("init\n") became puts
    assert run_main(ref, ["prog"], code) == 42
    assert capfd.readouterr().out == "init\ncounter=40\n"
