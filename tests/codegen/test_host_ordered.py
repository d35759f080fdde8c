"""An ordered construct whose block leaves the function (invalid OpenMP that a fuzzed
corpus program held) compiles to valid IR: no runtime call after the return."""

from __future__ import annotations

from host_programs import host_ir


def test_ordered_block_ending_in_return(tmp_path):
    ir = host_ir(tmp_path, "int main(void)\n{\n#pragma omp ordered\n    return 0;\n}\n")
    assert 'call void @"GOMP_ordered_start"()' in ir and "GOMP_ordered_end()" not in ir
