"""Every corpus program's compiled code written to a folder, so that a refactoring
can be checked to be behaviour-preserving: snapshot before, snapshot after, and
`diff -r` the two folders (the --compare option does it).

For each program of tests/programs (a .c file, or a directory of them linked
together) it writes, per source file:
  NAME.host.ll          the host module (as `run` compiles it, before the runtime is linked)
  NAME.gpu.ll           the GPU device module, schemes chosen automatically
  NAME.gpu-control-loop.ll   the same with --scheme control-loop
  NAME.cpu.ll           the CPU device's work-group module
  NAME.*.kernels        the launcher's description of each module's kernels
and once: the host, CPU-device and GPU-device runtimes' IR. A program that does not
compile writes its error instead.

    python bench/ir_snapshot.py OUT_DIR [-j 2] [-k SUBSTRING]
    python bench/ir_snapshot.py --compare BEFORE_DIR AFTER_DIR

Run it from the checkout to snapshot (PYTHONPATH=that checkout): it imports the
omp2gpu found there. Kernel names carry a file id made from the file's absolute
path; it is replaced by the file's name so two checkouts compare.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def programs() -> list[Path]:
    """The corpus of the checkout whose omp2gpu is imported."""
    import omp2gpu
    corpus = Path(omp2gpu.__file__).resolve().parents[1] / "tests" / "programs"
    return sorted([*corpus.glob("*.c"), *(d for d in corpus.iterdir() if d.is_dir() and any(d.glob("*.c")))])


def _kernels_text(code) -> str:
    if code is None:
        return "no device code\n"
    return "".join(f"{name}: {info!r}\n" for name, info in sorted(code.kernels.items()))


def _unit_texts(source: Path, separate: bool, scheme: str) -> dict[str, str]:
    """The compiled texts of one source file with `scheme`; the file id normalised."""
    from omp2gpu import driver
    from omp2gpu.diagnostics import CompileError
    options = driver.CompileOptions(scheme=scheme)
    try:
        unit = driver.compile_unit(source, options, separate=separate, whole_program=not separate)
    except CompileError as error:
        return {"error": f"{error}\n"}
    texts = {"host.ll": str(unit.host),
             "gpu.ll": unit.gpu.module_text if unit.gpu else "no device code\n",
             "gpu.kernels": _kernels_text(unit.gpu),
             "cpu.ll": unit.cpu.module_text if unit.cpu else "no device code\n",
             "cpu.kernels": _kernels_text(unit.cpu)}
    file_id = driver.unit_id(source)
    return {key: text.replace(file_id, f"<{source.name}>") for key, text in texts.items()}


def snapshot_program(program: Path, out: Path) -> str:
    """Writes one program's texts under out/; returns its name. Compiled by its path from
    the checkout's root, so that __FILE__ is the same in two checkouts."""
    root = program.parents[2]            # tests/programs/NAME(.c)
    os.chdir(root)
    program = program.relative_to(root)
    out = out.resolve()
    separate = program.is_dir()
    for source in sorted(program.glob("*.c")) if separate else [program]:
        stem = f"{program.name}.{source.stem}" if separate else source.stem
        auto = _unit_texts(source, separate, "auto")
        forced = _unit_texts(source, separate, "control-loop")
        for key, text in auto.items():
            (out / f"{stem}.{key}").write_text(text)
        for key in ("gpu.ll", "gpu.kernels", "error"):
            if key in forced:
                (out / f"{stem}.{key.replace('gpu', 'gpu-control-loop')}").write_text(forced[key])
    return program.name


def snapshot_runtimes(out: Path) -> None:
    from omp2gpu import cpu_driver, device_driver, driver
    (out / "runtime.host.ll").write_text(driver.compile_host_runtime())
    for source in sorted(cpu_driver.cpu_runtime_dir().glob("*.c")):
        (out / f"runtime.cpu.{source.stem}.ll").write_text(cpu_driver.compile_runtime_source(source))
    for module in device_driver.device_runtime_modules():
        (out / f"runtime.gpu.{module.name}.ll").write_text(str(module))


def compare(before: Path, after: Path) -> int:
    """0 when the two snapshots hold the same files with the same bytes."""
    names = sorted({p.name for p in before.iterdir()} | {p.name for p in after.iterdir()})
    differ = [n for n in names if not ((before / n).is_file() and (after / n).is_file()
                                      and filecmp.cmp(before / n, after / n, shallow=False))]
    for name in differ[:50]:
        print(f"differs: {name}")
    print(f"{len(names) - len(differ)} identical, {len(differ)} differ")
    return 1 if differ else 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("-j", type=int, default=2, help="processes (default 2)")
    parser.add_argument("-k", default="", help="only programs whose name holds this")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        parser.error("an output folder, or --compare")
    args.out.mkdir(parents=True, exist_ok=True)
    snapshot_runtimes(args.out)
    args.out = args.out.resolve()
    chosen = [p for p in programs() if args.k in p.name]
    # A fresh process per program: LLVM numbers clashing type names (%struct.x.0.743)
    # by what the process parsed before, so a shared process would make the order matter.
    with ProcessPoolExecutor(max_workers=args.j, max_tasks_per_child=1) as pool:
        for name in pool.map(snapshot_program, chosen, [args.out] * len(chosen)):
            print(name, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
