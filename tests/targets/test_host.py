"""The host target on hand-built llvmlite.ir modules: optimisation, the JIT
running main with argv, libc/libm calls, object files and assembly."""

from __future__ import annotations

import shutil
import subprocess

import llvmlite.ir as ir
import pytest

from omp2gpu.targets import host

I8, I32, DOUBLE = ir.IntType(8), ir.IntType(32), ir.DoubleType()
CHAR_P = I8.as_pointer()


def _cstring(module: ir.Module, name: str, text: str) -> ir.GlobalVariable:
    data = bytearray(text.encode() + b"\0")
    var = ir.GlobalVariable(module, ir.ArrayType(I8, len(data)), name)
    var.initializer = ir.Constant(var.type.pointee, data)
    var.global_constant = True
    return var


def _printf(module: ir.Module) -> ir.Function:
    return ir.Function(module, ir.FunctionType(I32, [CHAR_P], var_arg=True), "printf")


def argv_echo_module() -> ir.Module:
    """int main(int argc, char **argv): prints argc and every argv[i], returns argc + 40."""
    m = ir.Module("argv_echo")
    printf = _printf(m)
    fmt_argc, fmt_arg = _cstring(m, "fmt_argc", "argc=%d\n"), _cstring(m, "fmt_arg", "argv[%d]=%s\n")
    main = ir.Function(m, ir.FunctionType(I32, [I32, CHAR_P.as_pointer()]), "main")
    argc, argv = main.args
    entry, loop, done = (main.append_basic_block(n) for n in ("entry", "loop", "done"))
    b = ir.IRBuilder(entry)
    b.call(printf, [b.bitcast(fmt_argc, CHAR_P), argc])
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I32)
    i.add_incoming(I32(0), entry)
    b.call(printf, [b.bitcast(fmt_arg, CHAR_P), i, b.load(b.gep(argv, [i]))])
    nxt = b.add(i, I32(1))
    i.add_incoming(nxt, loop)
    b.cbranch(b.icmp_signed("<", nxt, argc), loop, done)
    b.position_at_end(done)
    b.ret(b.add(argc, I32(40)))
    return m


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
    status = host.run_main(host.optimise(argv_echo_module(), 2), ["prog.c", "alpha", "42"])
    assert status == 43
    assert capfd.readouterr().out == "argc=3\nargv[0]=prog.c\nargv[1]=alpha\nargv[2]=42\n"


def test_run_main_accepts_an_unoptimised_ir_module(capfd):
    assert host.run_main(argv_echo_module(), ["p"]) == 41
    assert capfd.readouterr().out == "argc=1\nargv[0]=p\n"


def test_main_without_parameters_and_libm():
    assert host.run_main(no_param_module(3), ["prog"]) == 12


def test_argv_strings_are_writable(capfd):
    assert host.run_main(writes_argv_module(), ["prog", "hello"]) == 0
    assert capfd.readouterr().out == "Xello\n"


def test_void_main_reports_zero():
    m = ir.Module("void_main")
    main = ir.Function(m, ir.FunctionType(ir.VoidType(), []), "main")
    ir.IRBuilder(main.append_basic_block()).ret_void()
    assert host.run_main(m, ["prog"]) == 0


def test_missing_main_is_reported():
    m = ir.Module("library")
    ir.Function(m, ir.FunctionType(I32, []), "main")  # declared, not defined
    ref = host.prepare(m)
    assert host.find_main(ref) is None
    with pytest.raises(LookupError):
        host.run_main(ref, ["prog"])


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_optimise_every_level(level):
    ref = host.optimise(argv_echo_module(), level)
    assert ref.triple == host.target_machine().triple
    assert ref.data_layout
    ref.verify()


def test_optimise_folds_constants():
    m = ir.Module("fold")
    main = ir.Function(m, ir.FunctionType(I32, []), "main")
    b = ir.IRBuilder(main.append_basic_block())
    slot = b.alloca(I32)
    b.store(I32(20), slot)
    b.ret(b.add(b.load(slot), I32(22)))
    text = str(host.optimise(m, 2))
    assert "ret i32 42" in text and "alloca" not in text


def test_optimise_rejects_bad_level():
    with pytest.raises(ValueError):
        host.optimise(argv_echo_module(), 4)


def test_emit_assembly_names_main():
    assert "main:" in host.emit_assembly(host.optimise(argv_echo_module(), 2))


def test_object_code_links_and_runs(tmp_path):
    obj = host.object_code(host.optimise(argv_echo_module(), 2))
    assert obj[:4] == b"\x7fELF"
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to link the object file with")
    (tmp_path / "prog.o").write_bytes(obj)
    subprocess.run([cc, str(tmp_path / "prog.o"), "-o", str(tmp_path / "prog"), "-lm"], check=True)
    done = subprocess.run([str(tmp_path / "prog"), "x"], capture_output=True, text=True)
    assert done.returncode == 42
    assert done.stdout.splitlines() == ["argc=2", f"argv[0]={tmp_path / 'prog'}", "argv[1]=x"]


def test_target_machine_is_cached():
    assert host.target_machine(2) is host.target_machine(2)
    assert host.target_machine(2, jit=True) is not host.target_machine(2)
