"""The code base's own rules, checked with the tests (so CI runs them): `ruff check`
(pyflakes, pycodestyle, bugbear, import sorting; pyproject.toml's [tool.ruff]) and
`lint-imports` (the import layers, offload/ a leaf, no import cycles;
[tool.importlinter]). Both come with the test extra; a missing one fails here."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    """The tool installed beside this Python (the venv's bin), else on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
    return found


def _run(command: list[str], env=None) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300, env=env)


def test_ruff_finds_nothing():
    result = _run([_tool("ruff"), "check", "--no-cache", "."])
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_contracts_are_kept():
    # lint-imports reads the package from the checkout, not from an installed copy.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    result = _run([_tool("lint-imports"), "--no-cache"], env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_wrong_way_import_breaks_a_contract(tmp_path):
    """The contracts bite: a copy of the package whose launcher imports the compiler fails."""
    copy = tmp_path / "omp2gpu"
    shutil.copytree(REPO / "omp2gpu", copy, ignore=shutil.ignore_patterns("__pycache__", "_runtime"))
    with (copy / "offload" / "abi.py").open("a") as handle:
        handle.write("\nfrom omp2gpu.codegen import module  # noqa: E402,F401\n")
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    result = subprocess.run([_tool("lint-imports"), "--no-cache"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=300, env=env)
    assert result.returncode != 0
    assert "offload is a leaf" in result.stdout and "BROKEN" in result.stdout


# What a target region's plan decides (codegen/openmp/region_plan.py); only the chooser
# decides it, when the plan is made.
PLAN_FIELDS = {"scheme", "gpu", "cpu", "reason", "team_stack_bytes", "one_team", "captures"}


def test_no_module_assigns_a_regions_scheme():
    import ast
    found = []
    for path in sorted((REPO / "omp2gpu").rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
            for target in targets:
                for part in ast.walk(target):
                    # (an object setting its own field of that name is not a plan)
                    if isinstance(part, ast.Attribute) and part.attr in PLAN_FIELDS and not (
                            isinstance(part.value, ast.Name) and part.value.id == "self"):
                        found.append(f"{path.relative_to(REPO)}:{node.lineno}: .{part.attr} =")
    assert found == []


def test_a_plan_cannot_be_changed():
    import dataclasses

    from omp2gpu.codegen.openmp.region_plan import RegionPlan
    plan = RegionPlan("k", None, "main", None, (), None, "runs on the host", (), True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.gpu = object()


def test_test_modules_have_unique_basenames():
    """The test folders are not packages, so pytest imports each module by its file name:
    two test files of one name in different folders fail the whole run's collection."""
    seen: dict[str, Path] = {}
    clashes = []
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        if path.name in seen:
            clashes.append(f"{seen[path.name].relative_to(REPO)} and {path.relative_to(REPO)}")
        seen.setdefault(path.name, path)
    assert not clashes, clashes
