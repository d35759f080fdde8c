"""An ordered construct whose block leaves the function (invalid OpenMP that a fuzzed
corpus program held, once an internal error): a located error, as gcc's."""

from __future__ import annotations

import pytest
from host_programs import host_ir

from omp2gpu.diagnostics import CompileError


def test_ordered_block_ending_in_return_is_a_located_error(tmp_path):
    with pytest.raises(CompileError, match="invalid branch to/from OpenMP structured block") as error:
        host_ir(tmp_path, "int main(void)\n{\n#pragma omp ordered\n    return 0;\n}\n")
    assert (error.value.location.line, error.value.location.column) == (4, 5)
