"""bench/lulesh/traffic_model.c: the sweep's memory traffic in a model of the L2 (no GPU)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    binary = tmp_path_factory.mktemp("model") / "traffic_model"
    subprocess.run(["cc", "-O2", "-I", str(REPO / "examples/lulesh"), str(REPO / "bench/lulesh/traffic_model.c"),
                    "-o", str(binary)], check=True)
    return binary


def figures(model: Path, *arguments: str) -> tuple[float, float, float]:
    """(DRAM sectors per element in order, interleaved; sector requests per warp)."""
    text = subprocess.run([str(model), *arguments], capture_output=True, text=True, check=True).stdout
    numbers = [float(re.search(rf"{label}[^:]*: ([\d.]+)", text)[1])
               for label in ("one after another", "interleaved", "sector requests per warp")]
    return numbers[0], numbers[1], numbers[2]


def test_one_region_reads_each_array_once_and_its_warps_are_coalesced(model):
    # 8 arrays of ints and 12 of doubles, each element's 128 bytes once: 4 sectors
    in_order, interleaved, requests = figures(model, "20", "1", "0.1")
    assert in_order == interleaved == 4.0
    assert 176 <= requests < 180                      # a few neighbours' sectors beyond the warp's


def test_eleven_regions_lists_cost_sector_requests_and_refetches(model):
    in_order, interleaved, requests = figures(model, "20", "11", "0.1")
    assert in_order > 4.0 and interleaved > 4.0
    assert requests > 190                             # runs of a few elements: scattered warps


def test_bad_arguments_are_refused(model):
    assert subprocess.run([str(model), "20", "3"], capture_output=True).returncode == 2
