"""Run a command in a thread with a large stack, so nesting depth is not a limit.

C allows deep nesting (C11 5.2.4.1 sets minimums; real generated code goes far
past them): a 10,000-term sum, 1,000 nested parentheses, a 1,000-long else-if
chain. pycparser's recursive-descent parser and AST visitors, and the
compiler's own tree walks, recurse once per level. Python's default recursion
limit (1,000) and the main thread's 8 MiB C stack would stop them, so the CLI
runs each command in a thread whose stack is STACK_BYTES, under a recursion
limit that this stack can hold; the main thread only waits.
"""

from __future__ import annotations

import sys
import threading

# Reserved address space, not memory: pages are touched only as deep as the
# recursion goes.
STACK_BYTES = 1 << 30
# Python frames that go through C (a visitor's getattr dispatch, a constructor)
# take C stack, pure Python calls (3.11+) none: at most about 1 KiB a level, so
# this limit fits STACK_BYTES, and is past any nesting found in real C.
RECURSION_LIMIT = 1_000_000


def call_with_deep_stack(function, *args):
    """function(*args) in a thread with a STACK_BYTES stack; its result, or its
    exception re-raised here. KeyboardInterrupt in the waiting main thread
    propagates (the worker is a daemon, so the process can still exit)."""
    outcome: dict[str, object] = {}

    def work():
        try:
            outcome["result"] = function(*args)
        except BaseException as error:   # SystemExit too: re-raised in the caller's thread
            outcome["error"] = error

    previous_limit = sys.getrecursionlimit()
    worker = threading.Thread(target=work, name="omp2gpu-compile", daemon=True)
    sys.setrecursionlimit(max(previous_limit, RECURSION_LIMIT))
    try:
        _start_with_stack(worker, STACK_BYTES)
        worker.join()
    finally:
        if not worker.is_alive():        # else interrupted: the worker keeps its limit
            sys.setrecursionlimit(previous_limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("result")


def _start_with_stack(thread: threading.Thread, size: int) -> None:
    """Start `thread` with a `size`-byte stack: the size is read as a thread starts."""
    previous = threading.stack_size()
    try:
        threading.stack_size(size)
    except (ValueError, RuntimeError):   # no settable stacks here: the default one
        pass
    try:
        thread.start()
    finally:
        threading.stack_size(previous)
