"""README.md's "Environment variables" table documents every OMP2GPU_*, OMP_* and
LIBOMPTARGET_* variable that omp2gpu's sources name (Python string literals, C getenv
calls): a variable added to the code and not to the README fails here."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PYTHON_LITERAL = re.compile(r"""["']((?:OMP2GPU|OMP|LIBOMPTARGET)_[A-Z0-9_]+)["']""")
C_GETENV = re.compile(r"""getenv\(\s*"([A-Z0-9_]+)"\s*\)""")
NOT_VARIABLES = {"OMP2GPU_INPUTS"}    # object_file.py's payload mark, not an environment variable


def variables_in_sources() -> dict[str, str]:
    """Each variable name -> a file that names it."""
    found: dict[str, str] = {}
    for path in sorted((REPO / "omp2gpu").rglob("*.py")):
        for name in PYTHON_LITERAL.findall(path.read_text(encoding="utf-8")):
            found.setdefault(name, str(path.relative_to(REPO)))
    for path in sorted((REPO / "runtime").rglob("*.[ch]")):
        for name in C_GETENV.findall(path.read_text(encoding="utf-8", errors="replace")):
            found.setdefault(name, str(path.relative_to(REPO)))
    return {name: where for name, where in found.items() if name not in NOT_VARIABLES}


def documented_variables() -> set[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("### Environment variables", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`([A-Z][A-Z0-9_]+)`", section))


def test_the_scan_finds_the_variables_it_must():
    found = variables_in_sources()
    assert {"OMP2GPU_PROFILE", "OMP2GPU_CACHE_DIR", "OMP_TARGET_OFFLOAD", "LIBOMPTARGET_INFO"} <= set(found)
    assert found["OMP_DEFAULT_DEVICE"]          # read by Python and by runtime/host/omp_api.c


def test_every_variable_the_code_reads_is_in_the_readme():
    missing = {name: where for name, where in variables_in_sources().items() if name not in documented_variables()}
    assert not missing, f"README.md's 'Environment variables' lacks: {missing}"
