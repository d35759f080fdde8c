"""codegen/variable_arrays.py: VLA storage, lengths and run-time sizes in the IR,
and the lengths a target region captures with a VLA."""

from __future__ import annotations

from pathlib import Path

from omp2gpu import driver


def _host_ir(tmp_path: Path, source: str, offload: bool = False) -> str:
    path = tmp_path / "prog.c"
    path.write_text(source)
    return str(driver.translate(path, driver.CompileOptions(), offload=offload).host)


def _function(ir_text: str, name: str) -> str:
    start = ir_text.index(f'@"{name}"(') if f'@"{name}"(' in ir_text else ir_text.index(f"@{name}(")
    return ir_text[start:ir_text.index("\n}", start)]


LOOP = r"""
int f(int n) {
    int total = 0;
    for (int i = 0; i < 1000; i++) {
        int scratch[n];
        scratch[0] = i;
        if (i % 3 == 0) continue;
        total += scratch[0];
    }
    return total;
}
"""


def test_storage_is_a_dynamic_alloca_released_at_the_end_and_on_continue(tmp_path):
    body = _function(_host_ir(tmp_path, LOOP), "f")
    assert body.count("llvm.stacksave") == 1
    assert body.count("llvm.stackrestore") == 2          # block end, and before `continue`
    assert "alloca i32, i64" in body                      # sized at run time, in the loop


def test_sizeof_reads_the_length_bound_at_the_declaration(tmp_path):
    source = "unsigned long f(int n) { double a[n][n + 1]; n = 0; return sizeof a; }"
    body = _function(_host_ir(tmp_path, source), "f")
    assert 'vla.' in body and "mul i64" in body


def test_subscripts_of_a_pointer_to_variable_rows_scale_by_the_row_length(tmp_path):
    source = "double f(int m, double (*p)[m], int i, int j) { return p[i][j]; }"
    body = _function(_host_ir(tmp_path, source), "f")
    assert "mul i64" in body and "getelementptr inbounds double, double*" in body


def test_a_target_region_captures_the_lengths_with_the_array(tmp_path):
    path = tmp_path / "prog.c"
    path.write_text("int main(int argc, char **argv) {\n int n = argc + 1, m = argc + 2;\n"
                    " double a[n][m];\n"
                    "#pragma omp target teams distribute parallel for\n"
                    " for (int i = 0; i < n; i++) a[i][0] = i;\n return (int)a[0][0];\n}\n")
    translation = driver.translate(path, driver.CompileOptions())
    kernel = next(f for f in translation.device.module.functions if f.name.startswith("__omp_offloading"))
    names = [argument.name for argument in kernel.args]
    assert "a" in names and sum(name.startswith("vla.") for name in names) == 2
