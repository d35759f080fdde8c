"""The JIT running main with argv, libc/libm calls, its result."""

from __future__ import annotations

import llvmlite.ir as ir
import pytest
from host_ir_modules import CHAR_P, DOUBLE, I8, I32, argv_echo_module

from omp2gpu.targets.host.execution import find_main, run_main
from omp2gpu.targets.host.machine import prepare
from omp2gpu.targets.host.optimisation import optimise


def no_param_module(status: int = 3) -> ir.Module:
    """int main(void): return (int)sqrt(81.0) + status, through libm."""
    m = ir.Module("no_params")
    sqrt = ir.Function(m, ir.FunctionType(DOUBLE, [DOUBLE]), "sqrt")
    pow_ = ir.Function(m, ir.FunctionType(DOUBLE, [DOUBLE, DOUBLE]), "pow")
    main = ir.Function(m, ir.FunctionType(I32, []), "main")
    b = ir.IRBuilder(main.append_basic_block())
    # An opaque argument keeps the optimiser from folding the libm calls away.
    volatile = b.alloca(DOUBLE)
    b.store(DOUBLE(81.0), volatile).volatile = True
    x = b.load(volatile)
    x.volatile = True
    root = b.call(sqrt, [x])
    b.ret(b.add(b.fptosi(b.call(pow_, [root, DOUBLE(1.0)]), I32), I32(status)))
    return m


def writes_argv_module() -> ir.Module:
    """C allows main to modify its argv strings: argv[1][0] = 'X'; puts(argv[1])."""
    m = ir.Module("writes_argv")
    puts = ir.Function(m, ir.FunctionType(I32, [CHAR_P]), "puts")
    main = ir.Function(m, ir.FunctionType(I32, [I32, CHAR_P.as_pointer()]), "main")
    b = ir.IRBuilder(main.append_basic_block())
    arg1 = b.load(b.gep(main.args[1], [I32(1)]))
    b.store(I8(ord("X")), arg1)
    b.call(puts, [arg1])
    b.ret(I32(0))
    return m


def test_run_main_passes_argv_and_returns_status(capfd):
    status = run_main(optimise(argv_echo_module(), 2), ["prog.c", "alpha", "42"])
    assert status == 43
    assert capfd.readouterr().out == "argc=3\nargv[0]=prog.c\nargv[1]=alpha\nargv[2]=42\n"


def test_run_main_accepts_an_unoptimised_ir_module(capfd):
    assert run_main(argv_echo_module(), ["p"]) == 41
    assert capfd.readouterr().out == "argc=1\nargv[0]=p\n"


def test_main_without_parameters_and_libm():
    assert run_main(no_param_module(3), ["prog"]) == 12


def test_argv_strings_are_writable(capfd):
    assert run_main(writes_argv_module(), ["prog", "hello"]) == 0
    assert capfd.readouterr().out == "Xello\n"


def test_void_main_reports_zero():
    m = ir.Module("void_main")
    main = ir.Function(m, ir.FunctionType(ir.VoidType(), []), "main")
    ir.IRBuilder(main.append_basic_block()).ret_void()
    assert run_main(m, ["prog"]) == 0


def test_missing_main_is_reported():
    m = ir.Module("library")
    ir.Function(m, ir.FunctionType(I32, []), "main")  # declared, not defined
    ref = prepare(m)
    assert find_main(ref) is None
    with pytest.raises(LookupError):
        run_main(ref, ["prog"])
