"""The `omp2gpu` command.

    omp2gpu run prog.c [options] [-- args...]     build the native executable (cached), run it
    omp2gpu run a.c b.o libc.a [-- args...]       several files, objects, static libraries
    omp2gpu compile -c a.c [b.c...] [-o OUT]      write omp2gpu objects (.o: object_file.py)
    omp2gpu compile a.c b.o [-o prog]             a native executable (a.out; -shared: a library)
    omp2gpu compile prog.c --emit-llvm [-o OUT]   write host LLVM IR (.ll)
    omp2gpu link-flags [--shared]                 what `cc main.o x.o` (or `cc -shared`) needs for omp2gpu objects
    omp2gpu report prog.c [options]               registers, memory, occupancy per kernel
    omp2gpu cc [gcc's flags] FILE...              omp2gpu-cc, the drop-in C compiler (tools/cc.py)
    omp2gpu doctor                                the devices, and why a GPU is not usable

Options are spelt as a C compiler user types them (-I, -D, -U, -O2, -std=c99,
-w, -fopenmp, -lm). Exit status: the program's for `run`; 1 for an error in
the input; 2 for a bad command line or an internal compiler error.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from omp2gpu import __version__, config, device_driver, driver, native_link
from omp2gpu.codegen.openmp.gpu.kernels import describe_regions
from omp2gpu.diagnostics import CompileError
from omp2gpu.error_order import first_in_source_order
from omp2gpu.object_file import is_object_or_archive
from omp2gpu.pipeline import dump, dumped_stages, report_stage_times, stage_times
from omp2gpu.targets import remote_server
from omp2gpu.tools import cc, cli_flags, doctor, report
from omp2gpu.tools import report as report_tool
from omp2gpu.tools.command_guard import run_guarded, write_output


def _common_options() -> argparse.ArgumentParser:
    """What every command takes: input files and the compiler flags."""
    p = argparse.ArgumentParser(add_help=False, allow_abbrev=False, parents=[cli_flags.compiler_flags()])
    p.add_argument("inputs", metavar="FILE", nargs="+",
                   help="C source files (run, compile: also omp2gpu objects and archives)")
    return p


def _add_output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", dest="output", metavar="FILE", help="output file ('-' for stdout)")


def build_parser() -> argparse.ArgumentParser:
    common = _common_options()
    parser = argparse.ArgumentParser(prog="omp2gpu", allow_abbrev=False,
                                     description="OpenMP 4.5/5.x offload compiler for C.",
                                     epilog="`omp2gpu COMMAND --help` lists the command's flags and the "
                                            "--dump stages; README.md lists the environment variables. "
                                            "`omp2gpu cc ARGS...` (omp2gpu-cc) is a drop-in C compiler with "
                                            "gcc's flags; `omp2gpu doctor` lists the devices and why a GPU "
                                            "is not usable.")
    parser.add_argument("--version", action="version", version=f"omp2gpu {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    described = dict(parents=[common], allow_abbrev=False, epilog=cli_flags.stages_help(),
                     formatter_class=argparse.RawDescriptionHelpFormatter)

    run = commands.add_parser("run", **described,
                              usage="%(prog)s FILE... [options] [-- program arguments...]",
                              help="compile and run a program: run FILE.c [options] [-- args...]")
    run.add_argument("--device", choices=("auto", "gpu", "cpu", "host"), default="auto",
                     help="where target regions run: auto (the GPU when there is one, else the "
                          "CPU device), gpu or cpu (that device only, required: "
                          "OMP_TARGET_OFFLOAD=MANDATORY), host (offloading disabled)")
    run.add_argument("--cpu-schedule", dest="cpu_schedule", metavar="POLICY[,CHUNK]",
                     help="how the CPU device deals work-groups to its workers: static, dynamic, "
                          "guided or steal, CHUNK groups at a time (default: steal; "
                          "OMP2GPU_CPU_SCHEDULE)")
    _accept_native(run)
    run.set_defaults(handler=_run)

    compile_ = commands.add_parser("compile", **described,
                                   help="compile to omp2gpu objects, an omp2gpu executable, LLVM IR or PTX")
    _add_output(compile_)
    compile_.add_argument("-c", dest="object", action="store_true", help="write an object file (the default)")
    compile_.add_argument("--emit-llvm", "-emit-llvm", dest="emit_llvm", action="store_true",
                          help="write LLVM IR text instead of an object file (with -S: the device module)")
    compile_.add_argument("-S", dest="device_assembly", action="store_true",
                          help="write the device code: PTX (with --emit-llvm: the device LLVM IR)")
    compile_.add_argument("--explain", action="store_true",
                          help="say for each target region which scheme runs it, and why")
    _accept_native(compile_)
    compile_.add_argument("-shared", "--shared", dest="shared", action="store_true",
                          help="a shared library (its target regions work from any "
                               "host program: a C main built by gcc, Python through ctypes)")
    compile_.set_defaults(handler=_compile)

    flags = commands.add_parser("link-flags", help="the link flags another compiler needs for "
                                                   "omp2gpu objects (the offload runtime, OpenMP)")
    flags.add_argument("--shared", action="store_true",
                       help="for a `-shared` link (a shared library of omp2gpu objects)")
    flags.set_defaults(handler=_link_flags, inputs=[], dump=[], no_warnings=True)

    serve = commands.add_parser("serve", help="serve this machine's devices to remote programs "
                                              "(OMP2GPU_DEVICES=remote://HOST:PORT; docs/remote.md)")
    serve.add_argument("--listen", default="127.0.0.1:17200", metavar="HOST:PORT",
                       help="the address to listen on (default 127.0.0.1:17200: the loopback only)")
    serve.add_argument("--devices", choices=("cpu", "gpu", "all"), default="cpu",
                       help="which of this machine's devices to serve (default: cpu)")
    serve.add_argument("--token-file", dest="token_file", metavar="FILE",
                       help="the shared secret clients must present (else OMP2GPU_REMOTE_TOKEN)")
    serve.set_defaults(handler=_serve, inputs=[], dump=[], no_warnings=True)

    report = commands.add_parser("report", **described,
                                 help="registers, memory and occupancy of each kernel (--run: "
                                      "fastest launch configuration): report FILE.c [options] [-- args...]")
    _add_output(report)
    report_tool.add_arguments(report)
    report.set_defaults(handler=_report)
    return parser


def _serve(args: argparse.Namespace, program_args: list[str]) -> int:
    """`omp2gpu serve`: this process becomes the server (runtime/remote/server.c)."""
    command = [str(remote_server.build()), "--listen", args.listen, "--devices", args.devices]
    if args.token_file:
        command += ["--token-file", args.token_file]
    sys.stdout.flush()
    os.execv(command[0], command)
    return 1


def _accept_native(parser: argparse.ArgumentParser) -> None:
    """--native, from when programs were JIT-compiled by default: accepted, as every program
    is native now (docs/native-executables.md)."""
    parser.add_argument("--native", action="store_true", help=argparse.SUPPRESS)


def parse_command_line(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """The parsed options and the program's own arguments (after the first --)."""
    if "--" in argv:
        split = argv.index("--")
        argv, program_args = argv[:split], argv[split + 1:]
    else:
        program_args = []
    parser = build_parser()
    args, extra = parser.parse_known_args(cli_flags.normalise(argv))
    # Inputs after options (`run a.c -O2 b.c`) are left over by argparse: still inputs.
    unknown = [arg for arg in extra if arg.startswith("-")]
    if args.command == "run" and any(arg.startswith("-o") for arg in unknown):     # -o FILE, -oFILE
        parser.error("-o: 'run' compiles in memory and writes no file "
                     "('omp2gpu compile FILE... -o OUT' writes an executable)")
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}"
                     + ("; program arguments go after `--`" if args.command in ("run", "report") else ""))
    args.inputs += extra
    if args.command in ("link-flags", "serve"):
        return args, program_args
    args.input = args.inputs[0]
    misplaced = cli_flags.misplaced_program_arguments(args.command, args.inputs, argv, lambda p: Path(p).exists())
    if misplaced:
        parser.error(misplaced)
    cli_flags.warn_ignored_flags(args)
    if len(args.inputs) > 1 and args.command == "report":
        parser.error("'report' takes one C file")
    if program_args and args.command not in ("run", "report"):
        parser.error(f"'{args.command}' takes no program arguments after --")
    return args, program_args


compile_options = cli_flags.compile_options


def _check_input(path: str) -> None:
    if not Path(path).is_file():
        raise CompileError(f"no such file: {path}")


def _run(args: argparse.Namespace, program_args: list[str]) -> int:
    for path in args.inputs:
        _check_input(path)
    return _run_executable(args, program_args, _program_environment(args))


def _program_environment(args: argparse.Namespace) -> dict[str, str]:
    """The program's environment: this one, with what --device and --cpu-schedule say (the
    runtime reads OMP_TARGET_OFFLOAD when it starts, as libomptarget does), checked."""
    chosen = {}
    policy = {"gpu": "MANDATORY", "cpu": "MANDATORY", "host": "DISABLED"}.get(args.device)
    if policy:
        chosen["OMP_TARGET_OFFLOAD"] = policy
    if args.device in ("gpu", "cpu"):
        chosen["OMP2GPU_DEVICES"] = args.device          # the one kind of device, as device 0
    if args.cpu_schedule is not None:
        try:
            cli_flags.check_cpu_schedule(args.cpu_schedule)
        except ValueError as error:
            raise CompileError(f"--cpu-schedule: {error}") from None
        chosen["OMP2GPU_CPU_SCHEDULE"] = args.cpu_schedule
    environment = config.child_environment(**chosen)
    config.check_for_programs(environment)
    return environment


# Set by main() when it is the process's own command line: `run` then becomes the
# program (exec), so its exit status, signals and process id are the program's own.
_may_exec = False


def _run_executable(args: argparse.Namespace, program_args: list[str], environment: dict[str, str]) -> int:
    """The native executable (cached) run with the program's arguments, argv[0] the first
    input as `run` gives it, in `environment`, stdin/stdout/stderr inherited."""
    stage_times.clear()
    with driver.collector_paused():
        executable = native_link.cached_executable(args.inputs, compile_options(args))
    report_stage_times()
    argv = [args.inputs[0], *program_args]
    sys.stdout.flush()
    sys.stderr.flush()
    if _may_exec:
        os.execve(executable, argv, environment)
    done = subprocess.run(argv, executable=executable, env=environment, check=False)
    return done.returncode if done.returncode >= 0 else 128 - done.returncode   # a shell's status


def _compile(args: argparse.Namespace, program_args: list[str]) -> int:
    with driver.collector_paused():     # as `run` does: the compiler's objects live to the end
        return _compile_inputs(args)


def _compile_inputs(args: argparse.Namespace) -> int:
    for path in args.inputs:
        _check_input(path)
    options = compile_options(args)
    if args.device_assembly and not args.explain and len(args.inputs) > 1:
        return _link_device_code(args, options)
    if (args.device_assembly or args.explain or args.emit_llvm) and len(args.inputs) > 1:
        raise CompileError("--emit-llvm and --explain take one C file")
    if args.device_assembly or args.explain:
        return _compile_device(args, options)
    if args.emit_llvm:
        module = driver.build_host_module(args.input, options)
        write_output(args.output or Path(args.input).with_suffix(".ll").name, str(module).encode())
        return 0
    if _links(args) or args.shared:
        native_link.link(args.inputs, options, args.output or ("a.so" if args.shared else "a.out"),
                         shared=args.shared)
        return 0
    if args.output and len(args.inputs) > 1:
        raise CompileError("cannot specify -o with -c and several input files")
    for path in args.inputs:   # each object in the cwd, like cc -c
        write_output(args.output or Path(path).with_suffix(".o").name, native_link.compile_object(path, options))
    return 0


def _links(args: argparse.Namespace) -> bool:
    """Without -c, as cc: several inputs, an object or library among them, or an output
    not named *.o make an executable; one C file alone still makes its object."""
    if args.object:
        return False
    return len(args.inputs) > 1 or any(is_object_or_archive(p) for p in args.inputs) or (
        args.output is not None and args.output != "-" and not args.output.endswith(".o"))


def _compile_device(args: argparse.Namespace, options) -> int:
    """-S: the device module as PTX (or LLVM IR); --explain: one remark per target region."""
    translation = driver.translate(args.input, options)
    build = translation.device
    if args.explain:
        print(describe_regions(build) if build else f"{args.input}: no target regions", file=sys.stderr)
        for remark in translation.host_loop_remarks:         # the host's own `loop` constructs
            print(remark, file=sys.stderr)
        for remark in translation.speculated_loads:          # sema/speculation/
            print(remark, file=sys.stderr)
        if not args.device_assembly:
            return 0
    if build is None or not build.kernels:
        raise CompileError(f"{args.input}: no target region runs on the GPU, so there is no device code")
    if args.emit_llvm:
        suffix, data = ".device.ll", str(build.module).encode()
        dump(options, "device-ir", args.input, lambda: data.decode())
    else:
        dumper = lambda stage, render: dump(options, stage, args.input, render)  # noqa: E731
        suffix, data = ".ptx", device_driver.device_ptx(build, options, dumper).encode()
    write_output(args.output or Path(args.input).with_suffix(suffix).name, data)
    return 0


def _link_device_code(args: argparse.Namespace, options) -> int:
    """-S with several inputs: the device code of the linked program (PTX, or LLVM IR)."""
    code = driver.load_program(args.inputs, options).device
    if code is None:
        raise CompileError("no target region of these files runs on the GPU, so there is no device code")
    data = code.module_text if args.emit_llvm else device_driver.device_ptx(code, options)
    write_output(args.output or ("a.device.ll" if args.emit_llvm else "a.ptx"), data.encode())
    return 0


def _link_flags(args: argparse.Namespace, program_args: list[str]) -> int:
    print(" ".join(native_link.runtime_link_flags(shared=args.shared)))
    return 0


def _report(args: argparse.Namespace, program_args: list[str]) -> int:
    _check_input(args.input)
    return report.main(args, program_args, compile_options(args))


def _handle(args: argparse.Namespace, program_args: list[str]) -> int:
    """The command's handler; an error in an input is replaced by the first in its file."""
    dumped_stages.clear()
    try:
        status = args.handler(args, program_args)
        _warn_stages_not_reached(args)
        return status
    except CompileError as error:
        if error.location is None:
            raise
        raise first_in_source_order(error, args.inputs, compile_options(args)) from None


def _warn_stages_not_reached(args: argparse.Namespace) -> None:
    """--dump stages this command never reached (compile -c has no PTX; a run whose target
    regions never ran on the CPU device has no CPU-device IR), so none is silently dropped."""
    missed = sorted(frozenset().union(*args.dump) - dumped_stages)
    if missed and not args.no_warnings:
        print(f"omp2gpu: warning: --dump: 'omp2gpu {args.command}' produced no "
              f"{', '.join(missed)} here", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    global _may_exec
    _may_exec = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["cc"], ["doctor"]):        # the drop-in driver, the devices' check: their own parsers
        return (cc.main if argv[0] == "cc" else doctor.main)(argv[1:])
    try:
        args, program_args = parse_command_line(argv)
    except SystemExit as done:  # argparse: --help, --version, usage errors
        return done.code if isinstance(done.code, int) else (0 if done.code is None else 2)
    return run_guarded(_handle, args, program_args)

if __name__ == "__main__":
    sys.exit(main())
