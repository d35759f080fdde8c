"""bench/peers/run.py's bookkeeping that needs no GPU: a run split over several lent-GPU
commands (`--part K/N`) and merged again (`--report a.json b.json`), and the programs slower
than Clang listed with their reasons (slower_than_clang.json)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import pytest

PEERS = Path(__file__).resolve().parents[1] / "bench" / "peers"
sys.path.insert(0, str(PEERS))                  # run.py imports its neighbour programs.py
_spec = importlib.util.spec_from_file_location("bench_peers_run", PEERS / "run.py")
run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run)


def test_a_later_run_replaces_an_earlier_runs_row_and_the_rows_stay_sorted():
    first = {"device": "NVIDIA H200", "programs": [{"name": "b", "omp2gpu": 1}, {"name": "a", "omp2gpu": 1}]}
    second = {"device": "NVIDIA H200", "programs": [{"name": "c", "omp2gpu": 2}, {"name": "a", "omp2gpu": 2}]}
    merged = run.merged_results([first, second])
    assert [(row["name"], row["omp2gpu"]) for row in merged["programs"]] == [("a", 2), ("b", 1), ("c", 2)]
    assert merged["device"] == "NVIDIA H200"


@pytest.mark.parametrize("text, part", [("1/2", (1, 2)), ("2/2", (2, 2)), ("1/1", (1, 1))])
def test_a_part_is_k_of_n(text, part):
    assert run._part(text) == part


@pytest.mark.parametrize("text", ["0/2", "3/2", "2", "a/b"])
def test_a_bad_part_is_refused(text):
    with pytest.raises(argparse.ArgumentTypeError, match="--part wants K/N"):
        run._part(text)


def _row(name: str, ours: float, theirs: float) -> dict:
    return {"name": name, "omp2gpu": {"status": "same as gcc", "kernel_us": ours},
            "clang": {"status": "same as gcc", "kernel_us": theirs}}


def test_each_program_slower_than_clang_is_listed_with_its_reason_or_as_not_explained(tmp_path, monkeypatch):
    reasons = tmp_path / "slower_than_clang.json"
    reasons.write_text('{"slow_known": "its reason"}')
    monkeypatch.setattr(run, "REASONS", reasons)
    lines = run.slower_than_clang([_row("fast", 1.0, 2.0), _row("slow_new", 3.0, 2.0), _row("slow_known", 2.2, 2.0)])
    assert lines[1] == "## Slower than Clang, and why"
    assert lines[-2:] == ["- `slow_new` 1.50x: not explained yet.", "- `slow_known` 1.10x: its reason"]
    assert run.slower_than_clang([_row("fast", 1.0, 2.0)]) == []


def test_every_program_over_clang_in_the_committed_results_has_a_reason():
    results = json.loads((PEERS / "results.json").read_text())
    listed = run.slower_than_clang(run.compared(results["programs"]))
    assert not [line for line in listed if line.endswith("not explained yet.")]


def test_a_side_report_with_out_writes_only_there(tmp_path, monkeypatch):
    """`--report X --out DIR` (a few programs re-run) must not overwrite the full run's table here."""
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.setattr(run, "HERE", here)
    monkeypatch.setattr(run, "plot", lambda results, path: path.write_text("plot"))
    side = tmp_path / "side.json"
    row = _row("a", 1.0, 2.0)
    for compiler in run.COMPILERS:
        row[compiler].update(seconds=0.3, kernels=1, registers=16.0, occupancy=1.0)
    side.write_text(json.dumps({"device": "NVIDIA H200", "cpu": "x", "programs": [row]}))
    monkeypatch.setattr(sys, "argv", ["run.py", "--report", str(side), "--out", str(tmp_path / "out")])
    assert run.main() == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["omp2gpu_over_clang.png", "results.json",
                                                                    "results.md"]
    assert not list(here.iterdir())
    monkeypatch.setattr(sys, "argv", ["run.py", "--report", str(side)])     # without --out: the table here
    assert run.main() == 0
    assert (here / "results.json").exists()
