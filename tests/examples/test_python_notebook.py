"""examples/python/heat.ipynb: a valid nbformat-4 notebook whose code cells, executed in
order as Jupyter would (one namespace, in the notebook's folder), run the C file's target
regions on the CPU device, match NumPy, and draw their figures. No Jupyter needed: the
cells are read from the JSON and exec'd in a fresh Python process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO_ROOT / "examples" / "python" / "heat.ipynb"

# Run by the child process: every code cell in one namespace, then a summary on stdout.
RUNNER = """
import json, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
notebook = json.load(open(sys.argv[1], encoding="utf-8"))
namespace = {"__name__": "__main__"}
figures = 0
for number, cell in enumerate(notebook["cells"]):
    if cell["cell_type"] == "code":
        exec(compile("".join(cell["source"]), f"cell {number}", "exec"), namespace)
        figures += len(plt.get_fignums())
        plt.close("all")
print("SUMMARY " + json.dumps({"same_as_numpy": namespace["same_as_numpy"], "figures": figures,
                               "launches": {k: len(v) for k, v in namespace["launches"].items()},
                               "report": namespace["report"] is not None,
                               "kernel": [namespace["step"].scheme, namespace["step"].location]}))
"""


def test_the_notebook_is_nbformat_4_without_outputs():
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert notebook["nbformat"] == 4 and notebook["metadata"]["kernelspec"]["language"] == "python"
    kinds = [cell["cell_type"] for cell in notebook["cells"]]
    assert kinds[0] == "markdown" and kinds.count("code") >= 4
    for cell in notebook["cells"]:
        assert isinstance(cell["source"], list) and cell["id"]
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None


def test_the_notebooks_cells_run_on_the_cpu_device(tmp_path):
    pytest.importorskip("matplotlib")
    env = dict(os.environ, OMP2GPU_DEVICES="cpu", OMP_TARGET_OFFLOAD="MANDATORY", OMP_NUM_THREADS="2", MPLBACKEND="Agg",
               OMP2GPU_PROFILE=str(tmp_path / "trace.json"), TMPDIR=str(tmp_path))
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO_ROOT), env.get("PYTHONPATH", "")] if p)
    done = subprocess.run([sys.executable, "-c", RUNNER, str(NOTEBOOK)], cwd=NOTEBOOK.parent, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout.split("SUMMARY ", 1)[1])
    assert summary["same_as_numpy"] == {"NumPy": True}             # no CuPy on the CPU device
    steps = [count for kernel, count in summary["launches"].items() if "heat_step" in kernel]
    assert steps == [40]                                           # every step's launch traced
    assert summary["figures"] == 2 + summary["report"]             # the report's needs ptxas
    scheme, location = summary["kernel"]                           # library.kernels["heat.c:5"]
    assert scheme == "combined" and location.endswith("heat.c:5:13")
    trace = json.loads((tmp_path / "trace.json").read_text())      # written at exit, as documented
    assert any(event.get("cat") == "kernel" for event in trace["traceEvents"])
    assert any(event.get("cat") == "compile" for event in trace["traceEvents"])   # Python's and the runtime's
