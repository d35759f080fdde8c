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


def _straight_line(m: ir.Module, name: str, size: int, linkage: str = "internal") -> ir.Function:
    """int name(int x): `size` instructions of arithmetic."""
    function = ir.Function(m, ir.FunctionType(I32, [I32]), name)
    function.linkage = linkage
    b = ir.IRBuilder(function.append_basic_block())
    value = function.args[0]
    for k in range(size - 1):
        value = b.add(value, I32(k))
    b.ret(value)
    return function


def _caller(m: ir.Module, name: str, callees) -> ir.Function:
    function = ir.Function(m, ir.FunctionType(I32, []), name)
    b = ir.IRBuilder(function.append_basic_block())
    total = I32(0)
    for callee in callees:
        total = b.add(total, b.call(callee, [I32(1)]))
    b.ret(total)
    return function


def test_limit_inlining_growth_caps_a_caller_like_gcc():
    m = ir.Module("growth")
    big = [_straight_line(m, f"big{k}", 1000) for k in range(5)]
    small = _straight_line(m, "small", host.SMALL_FUNCTION_INSTRUCTIONS)
    twice = _straight_line(m, "twice", 1000)
    public = _straight_line(m, "public", 1000, linkage="")
    _caller(m, "main", [*big, small, twice, twice, public])
    # Called once each: the first two fit under LARGE_FUNCTION_INSTRUCTIONS (3000) with
    # main's own instructions; the rest would take main past it. Small functions, those
    # called twice and external ones are left to LLVM (no single-call bonus for them).
    assert host.limit_inlining_growth(m) == ["big2", "big3", "big4"]
    assert "noinline" in big[4].attributes and "noinline" not in big[0].attributes
    assert "noinline" not in small.attributes and "noinline" not in twice.attributes
    host.run_main(host.optimise(m, 2), ["prog"])      # still valid IR


def test_limit_inlining_growth_counts_what_is_inlined_into_a_callee():
    m = ir.Module("nested")
    leaves = [_straight_line(m, f"leaf{k}", 700) for k in range(3)]
    middle = _caller(m, "middle", leaves)
    middle.linkage = "internal"
    other = _straight_line(m, "other", 1000)
    _caller(m, "main", [middle, other])
    # middle absorbs its three leaves; main, with middle's 2,100 instructions, has no
    # room left for other's 1,000.
    assert host.limit_inlining_growth(m) == ["other"]


def test_limit_inlining_growth_ignores_address_taken_functions():
    m = ir.Module("taken")
    big = [_straight_line(m, f"big{k}", 1500) for k in range(3)]
    table = ir.GlobalVariable(m, ir.ArrayType(big[2].type, 1), "table")
    table.initializer = ir.Constant(table.value_type, [big[2]])
    _caller(m, "main", big)
    assert host.limit_inlining_growth(m) == ["big1"]


def test_limit_inlining_growth_reads_exact_names_in_initializers():
    # a table of big10 does not take big1's address (a prefix of its name)
    m = ir.Module("prefix")
    big = [_straight_line(m, f"big{k}", 1500) for k in range(3)]
    tail = _straight_line(m, "big10", 10)
    table = ir.GlobalVariable(m, ir.ArrayType(tail.type, 1), "table")
    table.initializer = ir.Constant(table.value_type, [tail])
    _caller(m, "main", big)
    assert host.limit_inlining_growth(m) == ["big1", "big2"]


def test_internalise_drops_what_main_does_not_reach(capfd):
    m = argv_echo_module()
    _straight_line(m, "unused", 10, linkage="")
    ref = host.prepare(m)
    host.internalise(ref)
    names = {f.name for f in ref.functions if not f.is_declaration}
    assert names == {"main"}
    assert host.run_main(host.optimise(ref, 2), ["p"]) == 41
    assert capfd.readouterr().out == "argc=1\nargv[0]=p\n"


def test_limit_inlining_growth_treats_a_whole_program_as_static():
    m = ir.Module("whole")
    big = [_straight_line(m, f"big{k}", 1500, linkage="") for k in range(3)]
    _caller(m, "main", big)
    assert host.limit_inlining_growth(m) == []
    assert host.limit_inlining_growth(m, whole_program=True) == ["big1", "big2"]


def _two_part_module() -> ir.Module:
    """main calls an internal function that prints a private string and reads an
    internal global, which a static constructor set: the pieces a split must link."""
    m = ir.Module("two_parts")
    printf = _printf(m)
    counter = ir.GlobalVariable(m, I32, "counter")
    counter.linkage, counter.initializer = "internal", I32(0)
    message = _cstring(m, "message", "counter=%d\n")
    message.linkage = "private"
    init = ir.Function(m, ir.FunctionType(ir.VoidType(), []), "init")
    init.linkage = "internal"
    b = ir.IRBuilder(init.append_basic_block())
    b.call(printf, [b.bitcast(_cstring(m, "hello", "init\n"), CHAR_P)])   # not evaluated away
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
    ref = host.optimise(_two_part_module(), 2)
    code = host.precompile(ref, parallel=parallel)
    assert (code is not None) == parallel
    if parallel:
        assert len(code.objects) == 2 and all(code.objects)
        assert len(code.constructors) == 1 and code.constructors[0].startswith("init")
    assert host.run_main(ref, ["prog"], code) == 42
    assert capfd.readouterr().out == "init\ncounter=40\n"


def test_precompile_leaves_small_modules_to_mcjit():
    assert host.precompile(host.optimise(_two_part_module(), 2)) is None


def _small_loop(m: ir.Module, name: str) -> ir.Function:
    """int name(int n): a counting loop, a few instructions."""
    function = ir.Function(m, ir.FunctionType(I32, [I32]), name)
    function.linkage = "internal"
    entry, loop, done = (function.append_basic_block(n) for n in ("entry", "loop", "done"))
    b = ir.IRBuilder(entry)
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I32)
    i.add_incoming(I32(0), entry)
    following = b.add(i, I32(1))
    i.add_incoming(following, loop)
    b.cbranch(b.icmp_signed("<", following, function.args[0]), loop, done)
    b.position_at_end(done)
    b.ret(following)
    return function


def test_limit_inlining_growth_keeps_loops_out_of_a_large_caller():
    # loops inlined into a huge main made -O2 quadratic; into a small caller they still go
    m = ir.Module("loops")
    loops = [_small_loop(m, f"loop{k}") for k in range(3)]
    flat = _straight_line(m, "flat", 50)
    _caller(m, "small", [loops[0]])
    main = ir.Function(m, ir.FunctionType(I32, []), "main")
    b = ir.IRBuilder(main.append_basic_block())
    value = I32(0)
    for k in range(host.LARGE_FUNCTION_INSTRUCTIONS):
        value = b.add(value, I32(k))
    for callee in (loops[1], flat, loops[2]):
        value = b.add(value, b.call(callee, [value]))
    b.ret(value)
    assert host.limit_inlining_growth(m) == ["loop1", "loop2"]


def test_limit_inlining_growth_never_marks_a_call_in_a_loop():
    m = ir.Module("loop")
    big = [_straight_line(m, f"big{k}", 1500) for k in range(3)]
    main = ir.Function(m, ir.FunctionType(I32, []), "main")
    entry, loop, done = (main.append_basic_block(n) for n in ("entry", "loop", "done"))
    b = ir.IRBuilder(entry)
    b.call(big[0], [I32(1)])
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I32)
    i.add_incoming(I32(0), entry)
    b.call(big[1], [i])                       # called once, but on every iteration
    following = b.add(i, I32(1))
    i.add_incoming(following, loop)
    b.cbranch(b.icmp_signed("<", following, I32(10)), loop, done)
    b.position_at_end(done)
    b.ret(b.call(big[2], [I32(2)]))
    assert host.limit_inlining_growth(m) == ["big2"]
