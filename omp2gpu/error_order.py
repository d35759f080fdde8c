"""A file's first error in source order, the one gcc reports.

Each of omp2gpu's steps goes over the whole file: every syntax error is found
before any directive is read, every directive before any expression is typed. So
where a file has several errors, the one a compilation stops at may come after
another; gcc, a one-pass compiler, reports the first in the file. Given the error
a compilation stopped at, this compiles the text before it (up to the last statement
boundary, the blocks open there closed: frontend/source_prefix.py) through the
front end and host code generation; an error found there, before the cut, came
first, and the text before it is searched the same way. The errors gcc finds only
when it lowers OpenMP regions, once the file is read (nesting, default(none)), come
after every other error of the file: the prefixes are compiled without them, and
such an error from the compilation gives way to any other the file has.
"""

from __future__ import annotations

import time
from pathlib import Path

from omp2gpu import diagnostics
from omp2gpu.codegen.module import ModuleEmitter
from omp2gpu.codegen.openmp.host.scheme import HostOpenMP
from omp2gpu.codegen.openmp.offload_host import OffloadHostOpenMP
from omp2gpu.diagnostics import CompileError, EndOfScopeError, LoweringError
from omp2gpu.frontend.parse import parse
from omp2gpu.frontend.source_prefix import PreprocessedSource
from omp2gpu.pipeline import CompileOptions, attach_openmp, preprocess_file

# Each step compiles a prefix or two; errors are rarely more than a few deep. On a
# large file each compile costs seconds: the search stops once it has run this long.
_MAX_STEPS = 8
_BUDGET_S = 5.0


def first_in_source_order(error: CompileError, inputs, options: CompileOptions) -> CompileError:
    """`error`, or an error of the same file before it where there is one."""
    path = _input_of(error, inputs)
    if path is None:
        return error
    try:
        source = PreprocessedSource(preprocess_file(path, options))
    except CompileError:
        return error
    deadline = time.monotonic() + _BUDGET_S
    with diagnostics.warnings_switched(False):    # the prefixes' were printed, or will be, by the compilation
        if isinstance(error, LoweringError):
            other = _error_before_lowering(source, path, options)
            if other is not None and other.location != error.location:   # not the same fault
                error = other
        for _ in range(_MAX_STEPS):
            earlier = _earlier_error(source, error, path, options, deadline)
            if earlier is None:
                break
            error = earlier
    return error


def _input_of(error: CompileError, inputs) -> Path | None:
    """The C file among `inputs` that the error is in."""
    if error.location is None or not error.location.file:
        return None
    try:
        where = Path(error.location.file).resolve()
        return next((Path(p) for p in inputs if Path(p).resolve() == where), None)
    except OSError:
        return None


def _earlier_error(source: PreprocessedSource, error: CompileError, path: Path,
                   options: CompileOptions, deadline: float) -> CompileError | None:
    offset = source.offset_of(error.location)
    if offset is None:
        return None
    for boundary, prefix in source.prefixes_before(offset):
        if time.monotonic() > deadline:
            return None
        try:
            ast = parse(prefix, str(path))
        except CompileError:
            continue                        # the cut left no whole C: cut earlier
        try:
            _compile(ast, path, options)
        except EndOfScopeError:
            return None                     # what is missing may follow the cut
        except CompileError as found:
            where = source.offset_of(found.location)
            if where is not None and where < boundary:
                return found
            continue                        # at the blocks the cut closed
        except Exception:                   # noqa: BLE001 -- a compiler bug the prefix met: keep the error found
            return None
        return None
    return None


def _error_before_lowering(source: PreprocessedSource, path: Path,
                           options: CompileOptions) -> CompileError | None:
    """The whole file's first error but for those found when lowering OpenMP regions:
    gcc reports any such error first, wherever it is."""
    try:
        _compile(parse(source.text, str(path)), path, options)
    except CompileError as found:
        return found
    except Exception:                       # noqa: BLE001 -- lowering checks skipped; keep theirs
        return None
    return None


def _compile(ast, path: Path, options: CompileOptions) -> None:
    """Steps 3-4 as driver.translate takes them, up to the host module, without the
    checks gcc makes only after the whole file (a later error of the file comes first)."""
    ast = attach_openmp(ast, lowering_checks=False)
    scheme = OffloadHostOpenMP(options.scheme) if options.offload else HostOpenMP()
    ModuleEmitter(path.name, scheme).emit_translation_unit(ast)
