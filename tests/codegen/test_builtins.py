"""codegen/builtins.py: GCC builtins the code generator expands itself."""

from __future__ import annotations

from omp2gpu import driver


def test_builtin_trap_is_llvm_trap_and_ends_the_path(tmp_path):
    path = tmp_path / "prog.c"
    path.write_text("int check(int x) {\n  if (x < 0)\n    __builtin_trap();\n  return x;\n}\n")
    ir_text = str(driver.translate(path, driver.CompileOptions(), offload=False).host)
    body = ir_text[ir_text.index('@"check"(') if '@"check"(' in ir_text else ir_text.index("@check("):]
    assert 'call void @"llvm.trap"()\n  unreachable' in body or "call void @llvm.trap()\n  unreachable" in body
