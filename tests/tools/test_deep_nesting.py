"""Nesting depth is no limit (omp2gpu/deep_stack.py, and the iterative tree walks of
codegen/openmp): generated programs with a 10,000-term sum, 1,000 nested
parentheses, a 1,000-long else-if chain and 500 nested blocks, each inside a
`target teams distribute parallel for`, run with the right answer on the host
and the CPU device, and compile to PTX that ptxas assembles under both GPU schemes.
The inputs are generated here: huge files stay out of the repository."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 300
N = 64              # loop iterations; every element is checked through the printed sum
KEYS_STEP = 15      # else-if chain: element i takes branch i * KEYS_STEP


def _program(body: str) -> str:
    """`body` computes `int r` from `int i` (and `const int *a`, {1..8})."""
    return f"""#include <stdio.h>
#define N {N}
int main(void) {{
  int a[8] = {{1, 2, 3, 4, 5, 6, 7, 8}};
  long out[N];
  #pragma omp target teams distribute parallel for map(to: a) map(from: out)
  for (int i = 0; i < N; i++) {{
    long r = -1;
    {body}
    out[i] = r;
  }}
  unsigned long sum = 0;
  for (int i = 0; i < N; i++) sum = sum * 3 + (unsigned long)out[i];
  printf("%lu\\n", sum);
  return 0;
}}
"""


def _long_sum(terms: int):
    body = "r = i + " + " + ".join(f"a[{k % 8}]" for k in range(terms)) + ";"
    return body, lambda i: i + sum(k % 8 + 1 for k in range(terms))


def _nested_parentheses(depth: int):
    return f"r = {'(' * depth}i + 1{')' * depth} * 2;", lambda i: (i + 1) * 2


def _else_if_chain(length: int):
    chain = " else ".join(f"if (i * {KEYS_STEP} == {k}) r = {k * 3 + 1};" for k in range(length))
    return chain, lambda i: i * KEYS_STEP * 3 + 1 if i * KEYS_STEP < length else -1


def _nested_blocks(depth: int):
    body = "r = i; " + "".join(f"{{ long v{k} = r + {k % 3}; r = v{k}; " for k in range(depth)) + "}" * depth
    return body, lambda i: i + sum(k % 3 for k in range(depth))


CASES = {
    "sum_10000_terms": _long_sum(10_000),
    "parentheses_1000_deep": _nested_parentheses(1_000),
    "else_if_1000_long": _else_if_chain(1_000),
    "blocks_500_deep": _nested_blocks(500),
}


def _expected(value_of) -> str:
    total = 0
    for i in range(N):
        total = (total * 3 + value_of(i)) % 2**64
    return f"{total}\n"


def _omp2gpu(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, OMP_NUM_THREADS="2")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, "-m", "omp2gpu", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)


@pytest.fixture(params=sorted(CASES))
def deep_program(request, tmp_path):
    body, value_of = CASES[request.param]
    source = tmp_path / f"{request.param}.c"
    source.write_text(_program(body))
    return source, _expected(value_of)


@pytest.mark.parametrize("device", ["host", "cpu"])
def test_deep_program_runs(deep_program, device):
    source, expected = deep_program
    result = _omp2gpu("run", str(source), "--device", device, cwd=source.parent)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected


def _ptxas():
    from omp2gpu.targets import nvptx
    return nvptx.find_ptxas()


@pytest.mark.skipif(_ptxas() is None, reason="ptxas not found")
@pytest.mark.parametrize("scheme", ["combined", "control-loop"])
def test_deep_program_assembles_for_the_gpu(deep_program, scheme):
    source, _ = deep_program
    result = _omp2gpu("compile", str(source), "-S", "--scheme", scheme, "-o", "x.ptx", cwd=source.parent)
    assert result.returncode == 0, result.stderr
    assembled = subprocess.run([str(_ptxas()), "-arch=sm_90", "-o", "x.cubin", "x.ptx"],
                               cwd=source.parent, capture_output=True, text=True, timeout=TIMEOUT_S)
    assert assembled.returncode == 0, assembled.stderr
