"""named_globals.py: one variable per name, made once with the attributes asked for."""

from llvmlite import ir

from omp2gpu.codegen.openmp.data.named_globals import named_global


def test_a_name_gives_one_variable_made_once():
    module = ir.Module()
    i32 = ir.IntType(32)
    lock = named_global(module, "lock", i32, "internal", ir.Constant(i32, 0), align=64)
    assert named_global(module, "lock", i32, "internal", ir.Constant(i32, 0)) is lock
    text = str(module)
    assert text.count("lock\" = ") == 1 and "internal global i32 0, align 64" in text
