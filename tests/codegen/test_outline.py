"""outline.py: a parallel region's or task's body as `void fn(void *data)`; what it uses
of the enclosing function is captured as it is emitted (shared: by address; a task's
firstprivate: by value), static storage is not captured."""

from __future__ import annotations

import re

from host_programs import host_ir

SOURCE = """
static int counter;
int main(void) {
  int shared_value = 1, copied = 2, unused = 3;
  double v[4];
  #pragma omp parallel
  { v[0] = shared_value; counter++; }
  #pragma omp task firstprivate(copied) shared(v)
  v[1] = copied;
  return unused;
}
"""


def _function(ir: str, prefix: str) -> str:
    match = re.search(r'define internal void @"(' + re.escape(prefix) + r'[^"]*)"\(i8\* %"data"\)\s*\n?\{(.*?)\n\}',
                      ir, re.S)
    assert match, f"no outlined function {prefix}"
    return match.group(2)


def test_parallel_body_is_outlined_and_captures_arrays_by_address_read_only_scalars_by_value(tmp_path):
    ir = host_ir(tmp_path, SOURCE)
    body = _function(ir, "main._omp_fn")
    assert '@"GOMP_parallel"' in ir
    assert "counter" in body and "unused" not in body        # static: by name; unused: not captured
    assert body.count("load i8*, i8**") == 1                 # v, an array: its address
    assert re.search(r"bitcast i8\* %\S+ to i32\*", body)    # shared_value, only read: its value


def test_task_firstprivate_is_captured_by_value(tmp_path):
    ir = host_ir(tmp_path, SOURCE)
    body = _function(ir, "main._omp_task")
    assert "load i8*, i8**" in body                          # v: shared
    assert re.search(r"bitcast i8\* %\S+ to i32\*", body)    # copied: its bytes in the block
    assert '@"GOMP_task"' in ir
