"""bench/aomp_smoke/run.py's bookkeeping that needs no aomp checkout: which tests it takes,
which output lines it compares, and how the table counts differences by their reason."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "bench" / "aomp_smoke"
_spec = importlib.util.spec_from_file_location("bench_aomp_smoke", HERE / "run.py")
run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run)


def test_only_folders_with_one_c_file_and_no_other_source_are_taken(tmp_path):
    smoke = tmp_path / "test" / "smoke"
    for name, files in {"one": ["a.c", "Makefile"], "two": ["a.c", "b.c"], "mixed": ["a.c", "k.cpp"],
                        "fortran": ["a.f90"]}.items():
        (smoke / name).mkdir(parents=True)
        for file in files:
            (smoke / name / file).write_text("")
    assert [folder.name for folder in run.single_file_tests(tmp_path)] == ["one"]


def test_lines_naming_the_device_or_time_are_not_compared():
    assert run.comparable("sum 45\nRunning on device 0\nTime: 1.2 s\nok\n") == ["sum 45", "ok"]


def test_differences_are_counted_by_their_reason():
    results = [{"name": "a", "outcome": "ran", "devices": {"cpu": {"outcome": "same"}}},
               {"name": "b", "outcome": "ran", "devices": {"cpu": {"outcome": "differs"}}},
               {"name": "c", "outcome": "ran", "devices": {"cpu": {"outcome": "differs"}}},
               {"name": "d", "outcome": "ran", "devices": {"cpu": {"outcome": "differs"}}},
               {"name": "e", "outcome": "omp2gpu refused", "why": "e.c:1:1: error: no", "traceback": False}]
    known = {"b": {"allowed": True, "why": "where it ran"}, "c": {"allowed": False, "why": "a limitation"}}
    table = run.markdown(results, ["cpu"], known, "ROCm/aomp test")
    assert "| cpu | 1 | 1 | 1 | 1 |" in table
    assert "- d (cpu): **not explained**" in table and "- e: `e.c:1:1: error: no`" in table


def test_every_known_difference_says_whether_openmp_allows_it():
    known = json.loads((HERE / "known_differences.json").read_text())
    assert all(isinstance(entry["allowed"], bool) and entry["why"] for name, entry in known.items()
               if not name.startswith("_"))
