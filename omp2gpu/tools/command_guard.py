"""How the commands (`omp2gpu`, `omp2gpu-cc`) end: an error in the input is its located
message and status 1, a bug in omp2gpu an internal compiler error and status 2 (the
traceback with OMP2GPU_DEBUG=1), Ctrl-C status 130."""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

from omp2gpu import config
from omp2gpu.deep_stack import call_with_deep_stack
from omp2gpu.diagnostics import CompileError


def run_guarded(call, *args) -> int:
    """call(*args)'s status, on a deep stack (deeply nested C); first, the compiler's
    settings checked (a bad one is an error before any work, wherever it is read)."""
    try:
        config.check_compiler_settings()
        return call_with_deep_stack(call, *args)
    except CompileError as err:
        print(err.format(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # a bug in omp2gpu, not in the user's program
        message = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
        print(f"omp2gpu: internal compiler error: {message}", file=sys.stderr)
        if _debugging():
            traceback.print_exc()
        else:
            print("omp2gpu: please report this bug with the input file and the command line "
                  "(OMP2GPU_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 2


def write_output(output, data) -> None:
    """A command's output to the file `output`, or to stdout for None or '-'; a file that
    cannot be written is a CompileError naming it."""
    if isinstance(data, str):
        data = data.encode()
    if output in (None, "-"):
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        Path(output).write_bytes(data)
    except OSError as err:
        raise CompileError(f"cannot write {output}: {err.strerror or err}") from None


def _debugging() -> bool:
    """OMP2GPU_DEBUG=1; a value that does not parse shows the traceback too (the guard
    must not fail while it reports a failure)."""
    try:
        return config.settings().debug
    except config.SettingError:
        return True
