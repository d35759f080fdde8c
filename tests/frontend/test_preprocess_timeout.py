"""frontend/preprocess.py: a preprocessor run that does not end is a located error."""

from __future__ import annotations

import shutil

import pytest

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend import preprocess

# Each level doubles the expansion: 2**40 copies of x, far past any timeout.
EXPLOSION = "".join(f"#define L{k + 1} L{k} L{k}\n" for k in range(40)) + "#define L0 x\nint a = L40;\n"


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc -E is the preprocessor with a timeout")
def test_exploding_macros_stop_at_the_timeout(tmp_path, monkeypatch):
    source = tmp_path / "explode.c"
    source.write_text(EXPLOSION)
    monkeypatch.setattr(preprocess, "PREPROCESS_TIMEOUT_S", 1)
    with pytest.raises(CompileError, match="preprocessing took longer than 1 s") as raised:
        preprocess.preprocess(str(source), backend="gcc")
    assert raised.value.location.file == str(source) and raised.value.location.line == 1
