"""`omp2gpu-cc` (and `omp2gpu cc`): omp2gpu as a drop-in C compiler for Makefiles, CMake and
autotools (docs/drop-in-driver.md). It reads gcc's command line (cc_args.py), answers as a
GNU-compatible compiler (its version, its predefined macros, `-v`), and does what gcc
would with the compile pipeline of `omp2gpu compile --native`:

    -E [-dM]       the preprocessed file (the macros)      frontend/preprocess.py
    -M, -MM        the make rule of the headers             gcc's own -M, same search path
    -S             host assembly
    -c             an omp2gpu object (ELF, device image in it)  native_link.compile_object
    (no mode)      a native executable, a.out (-shared: a library)  native_link.link
"""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from omp2gpu import __version__, driver, native_link, object_file, pipeline, runtime_files
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend import preprocess
from omp2gpu.targets import host, native_runtime
from omp2gpu.tools import cc_args, cli_flags, doctor
from omp2gpu.tools.cc_args import CcCommand
from omp2gpu.tools.command_guard import run_guarded, write_output
from omp2gpu.tools.progress import progress_line

PROGRAM = "omp2gpu-cc"
# The GNU C omp2gpu-cc answers as (__GNUC__ ...): what CMake and autotools identify.
GNU_VERSION = (12, 2, 0)
GNU_MACROS = tuple(f"{name}={value}" for name, value in
                   zip(("__GNUC__", "__GNUC_MINOR__", "__GNUC_PATCHLEVEL__"), GNU_VERSION))
TARGET = "x86_64-linux-gnu"


def version_text() -> str:
    major, minor, patch = GNU_VERSION
    return (f"{PROGRAM} (omp2gpu {__version__}) {major}.{minor}.{patch}\n"
            f"OpenMP {preprocess.OPENMP_VERSION} offload compiler for C, GNU C {major}.{minor} compatible; "
            f"offload targets: nvptx64-nvidia-cuda, the CPU device\n")


def _query(words: list[str]) -> int | None:
    """The answers that compile nothing: --print-devices (`omp2gpu doctor`), --version,
    -dumpversion, -dumpmachine, -print-* (cc's, for libtool's search paths), -v alone; None:
    there is work to do."""
    if words == ["--print-devices"]:
        print("\n".join(doctor.report()))
        return 0
    if "--version" in words:
        print(version_text(), end="")
        return 0
    if words in (["-dumpversion"], ["-dumpfullversion"]):
        print(".".join(map(str, GNU_VERSION[:1 if words[0] == "-dumpversion" else 3])))
        return 0
    if words == ["-dumpmachine"]:
        print(TARGET)
        return 0
    if words and all(word.startswith("-print-") for word in words):
        return subprocess.run([*native_runtime.c_compiler().split(), *words], check=False).returncode
    if words in ([], ["-v"]):
        if words:
            _print_banner()
            return 0
        print(f"{PROGRAM}: fatal error: no input files", file=sys.stderr)
        return 1
    return None


def _print_banner() -> None:
    """gcc -v's opening lines, as build tools read them (the version line, the target)."""
    print(f"Target: {TARGET}\nThread model: posix\n"
          f"gcc version {'.'.join(map(str, GNU_VERSION))} compatible ({PROGRAM}, omp2gpu {__version__})",
          file=sys.stderr)


def compile_options(command: CcCommand):
    """omp2gpu's CompileOptions for the command: its flags through omp2gpu's own parser
    (which warns of -f flags without an effect), GNU C's identity macros first."""
    flags = [*(f"-D{macro}" for macro in GNU_MACROS), *command.flags]
    args = cli_flags.compiler_flags(_RaisingParser).parse_args(cli_flags.normalise(flags))
    cli_flags.warn_ignored_flags(args)
    options = cli_flags.compile_options(args)
    return dataclasses.replace(options, openmp=command.openmp, offload=options.offload and command.openmp)


class _RaisingParser(argparse.ArgumentParser):
    def error(self, message):
        raise CompileError(message)


# --- the steps ------------------------------------------------------------------------------

class Steps:
    """What -v prints: each step with its time; -###: each step, not run."""

    def __init__(self, command: CcCommand):
        self.verbose, self.dry_run = command.verbose, command.dry_run
        pipeline.timing_requested = self.verbose

    def run(self, what: str, work):
        if self.dry_run:
            print(f' "{PROGRAM}" {what}', file=sys.stderr)
            return None
        pipeline.stage_times.clear()
        start = time.perf_counter()
        if self.verbose:
            result = work()
        else:
            with progress_line(what):
                result = work()
        if self.verbose:
            stages = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in pipeline.stage_times.items())
            print(f"{PROGRAM}: {what}: {time.perf_counter() - start:.2f} s" + (f" ({stages})" if stages else ""),
                  file=sys.stderr)
        return result

    def show_link(self, command_line: list[str]) -> None:
        if self.verbose:
            print(f" {shlex.join(command_line)}", file=sys.stderr)


def execute(command: CcCommand) -> int:
    if not command.inputs:
        raise CompileError("no input files")
    with tempfile.TemporaryDirectory(prefix="omp2gpu-cc-") as scratch:
        for item in command.inputs:
            if item.path == "-":            # `-x c -`: the source on stdin, as a file the pipeline reads
                item.path = str(Path(scratch) / "stdin.c")
                Path(item.path).write_bytes(sys.stdin.buffer.read())
        with driver.collector_paused():     # as `omp2gpu compile`: the compiler's objects live to the end
            return _execute(command)


def _execute(command: CcCommand) -> int:
    options = compile_options(command)
    steps = Steps(command)
    if command.verbose:
        _print_banner()
        print("#include <...> search starts here:\n " + "\n ".join(
            [*options.include_dirs, str(runtime_files.include_dir())]) + "\nEnd of search list.", file=sys.stderr)
    if command.mode in ("preprocess", "dependencies"):
        for source in _sources(command):
            steps.run(f"preprocess {source}", lambda s=source: _preprocess(command, options, s))
        return 0
    if command.mode in ("assemble", "compile"):
        _check_single_output(command)
        for source in _sources(command):
            steps.run(f"compile {source} -> {_object_name(command, source)}",
                      lambda s=source: _compile(command, options, s))
        for item in command.inputs:
            if item.language == "assembler":
                steps.run(f"assemble {item.path}", lambda p=item.path: _assemble(command, p))
        return 0
    return _link(command, options, steps)


def _sources(command: CcCommand) -> list[str]:
    return [item.path for item in command.inputs if item.language == "c"]


def _check_single_output(command: CcCommand) -> None:
    if command.output and len(command.inputs) > 1:
        raise CompileError("cannot specify '-o' with '-c', '-S' or '-E' with multiple files")


def _object_name(command: CcCommand, source: str) -> str:
    return command.output or Path(source).with_suffix(".s" if command.mode == "assemble" else ".o").name


def _preprocess(command: CcCommand, options, source: str) -> None:
    """-E (the text, or with -dM the macros) and -M/-MM (the rule) to -o, -MF or stdout."""
    if command.mode == "dependencies":
        write_output(command.dependencies.file or command.output, _dependency_rule(command, options, source, None))
        return
    if command.print_macros:
        text = preprocess.gcc_preprocessor(source, options.include_dirs, options.defines,
                                           _undefines(options), options.std, ["-dM"],
                                           forced=options.forced_includes)
    else:
        text = pipeline.preprocess_file(Path(source), options)
    write_output(command.output, text)


def _undefines(options) -> list[str]:
    return [*options.undefines, *([] if options.openmp else ["_OPENMP"])]


def _dependency_rule(command: CcCommand, options, source: str, object_name: str | None) -> str:
    """gcc's rule for `source`; `object_name`: the object -MD writes beside (its default target)."""
    request = command.dependencies
    flags = ["-M" if request.system_headers else "-MM"]
    flags += ["-MP"] if request.phony else []
    for flag, target in request.targets:
        flags += [flag, target]
    if not request.targets:
        flags += ["-MT", object_name or Path(source).with_suffix(".o").name]
    return preprocess.gcc_preprocessor(source, options.include_dirs, options.defines, _undefines(options),
                                       options.std, flags, forced=options.forced_includes)


def _compile(command: CcCommand, options, source: str) -> None:
    output = _object_name(command, source)
    if command.dependencies and command.dependencies.with_compile:
        dependency_file = command.dependencies.file or str(Path(output).with_suffix(".d"))
        write_output(dependency_file, _dependency_rule(command, options, source, output))
    if command.save_temps:
        write_output(Path(source).with_suffix(".i").name, pipeline.preprocess_file(Path(source), options))
    if command.mode == "assemble":
        write_output(output, host.emit_assembly(driver.build_host_module(source, options), options.opt_level,
                                                   march=options.march))
    else:
        write_output(output, native_link.compile_object(source, options))


def _assemble(command: CcCommand, path: str) -> None:
    """An assembler input: cc assembles it, as gcc would."""
    output = command.output or Path(path).with_suffix(".o").name
    done = subprocess.run([*native_runtime.c_compiler().split(), "-c", path, "-o", output],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise CompileError(f"assembling {path} failed: {done.stderr.strip()}")


def _link(command: CcCommand, options, steps: Steps) -> int:
    """The executable (or -shared library): C files and omp2gpu objects through omp2gpu's
    link; other compilers' objects and libraries, and the link flags, to cc after them."""
    output = command.output or ("a.so" if command.shared else "a.out")
    ours, others = [], []
    for item in command.inputs:
        if item.language == "c":
            ours.append(item.path)
        elif item.language == "assembler":
            others.append(item.path)
        elif not Path(item.path).is_file():
            raise CompileError(f"{item.path}: No such file or directory")
        else:
            (ours if object_file.is_omp2gpu_object(item.path) else others).append(item.path)
    if command.dependencies and command.dependencies.with_compile:
        for source in _sources(command):
            write_output(Path(source).with_suffix(".d").name, _dependency_rule(command, options, source, None))
    extra = [*others, *command.link_flags]
    native_link.link_observers[:] = [steps.show_link]
    if ours:
        steps.run(f"link {output} from {' '.join(ours)}",
                  lambda: native_link.link(ours, options, output, command.shared, extra))
    else:
        flags = [f"-L{d}" for d in options.library_dirs] + [f"-l{lib}" for lib in options.libraries]
        steps.run(f"link {output}", lambda: native_link.run_link(
            native_link.link_command([], [*extra, *flags], output, command.shared), output))
    return 0


def _main(words: list[str]) -> int:
    words = cc_args.expand_response_files(words)
    answered = _query(words)
    if answered is not None:
        return answered
    command = cc_args.parse(words)
    quiet = "-w" in command.flags
    for note in command.notes:
        if not quiet:
            print(f"{PROGRAM}: warning: {note}", file=sys.stderr)
    return execute(command)


def main(argv: list[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    return run_guarded(_main, words)


if __name__ == "__main__":
    sys.exit(main())
