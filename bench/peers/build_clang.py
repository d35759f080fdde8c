"""bench/peers, step 1 (here; no GPU needed): every program built by Clang 19 for sm_90, and
what its binaries need on the GPU machine packed beside them.

    python bench/peers/build_clang.py [--out .peers] [--only SUBSTRING[,SUBSTRING...]]

Needs Debian's clang-19 and libomp-19-dev (apt-get install clang-19 libomp-19-dev) and pip
(for CUDA 12's ptxas and nvJitLink wheels). LLVM 19's offload runtime refuses the images
CUDA 13's nvlink makes, so the device code is assembled by CUDA 12's ptxas and linked by
nvlink_nvjitlink.c (nvJitLink 12), in a CUDA-12 folder made from the wheels
(nvidia-cuda-nvcc-cu12, nvidia-nvjitlink-cu12). The output folder:
    bin/NAME            Clang's program (or bin/NAME.error: why it did not build)
    programs.json       the programs and their settings (programs.py)
    runtime.tar.xz      libomptarget, libomp and the libraries they load, for LD_LIBRARY_PATH
Step 2 is run.py on the GPU machine, with the folder carried there.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from programs import REPO, all_programs

HERE = Path(__file__).resolve().parent
CLANG = "clang-19"
LLVM_LIB = Path("/usr/lib/llvm-19/lib")
WHEELS = ("nvidia-cuda-nvcc-cu12==12.9.86", "nvidia-nvjitlink-cu12==12.9.86")
# gcc warns where clang 16+ stops at C89's implicit declarations (getopt under -std=c99): the
# corpus is built as gcc builds it
LENIENCY = ("-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int")
CLANG_ENV = {"LIBRARY_PATH": str(LLVM_LIB), "PATH": "/usr/bin:/bin"}     # its device runtime's bitcode found
SYSTEM_LIBRARIES = ("libc.so", "libm.so", "libstdc++", "libgcc_s", "ld-linux", "libpthread", "libdl.so", "librt.so")


def cuda12(folder: Path) -> Path:
    """A CUDA 12 folder as clang's --cuda-path reads it: bin/ptxas, bin/nvlink (ours),
    nvvm/libdevice, the version in include/cuda.h."""
    if (folder / "bin" / "nvlink").exists():
        return folder
    wheels = folder / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                    "--platform", "manylinux2014_x86_64", "-d", str(wheels), *WHEELS], check=True)
    for wheel in wheels.glob("*.whl"):
        zipfile.ZipFile(wheel).extractall(wheels / "unpacked")
    unpacked = wheels / "unpacked" / "nvidia"
    for sub in ("bin", "lib64", "nvvm/libdevice", "include"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    shutil.copy(unpacked / "cuda_nvcc" / "bin" / "ptxas", folder / "bin" / "ptxas")
    (folder / "bin" / "ptxas").chmod(0o755)
    shutil.copy(unpacked / "cuda_nvcc" / "nvvm" / "libdevice" / "libdevice.10.bc", folder / "nvvm" / "libdevice")
    shutil.copy(unpacked / "nvjitlink" / "lib" / "libnvJitLink.so.12", folder / "lib64")
    (folder / "include" / "cuda.h").write_text("#define CUDA_VERSION 12090\n")     # how clang reads the version
    (folder / "bin" / "nvcc").write_text("#!/bin/sh\nexit 1\n")                      # clang looks for it
    (folder / "bin" / "nvcc").chmod(0o755)
    subprocess.run(["gcc", "-O2", "-o", str(folder / "bin" / "nvlink"), str(HERE / "nvlink_nvjitlink.c"),
                    f"-I{unpacked / 'nvjitlink' / 'include'}", str(folder / "lib64" / "libnvJitLink.so.12"),
                    "-Wl,-rpath,$ORIGIN/../lib64"], check=True)
    return folder


def build(program, cuda: Path, bin_dir: Path) -> bool:
    output = bin_dir / program.name
    command = [CLANG, "-O3", "-fopenmp", "--offload-arch=sm_90", f"--cuda-path={cuda}", f"-std={program.std}",
               *LENIENCY, *program.flags, str(program.source), "-o", str(output), "-lm"]
    done = subprocess.run(command, capture_output=True, text=True, env=CLANG_ENV)
    if done.returncode != 0:
        (bin_dir / f"{program.name}.error").write_text(done.stderr[-4000:])
    return done.returncode == 0


def pack_runtime(path: Path) -> None:
    """libomptarget and libomp of LLVM 19 and the libraries they load but a GPU image's
    glibc and libstdc++, flat, for LD_LIBRARY_PATH."""
    roots = [LLVM_LIB / "libomptarget.so.19.1", LLVM_LIB / "libomp.so.5"]
    found = {root.name: root for root in roots}
    for root in roots:
        listing = subprocess.run(["ldd", str(root)], capture_output=True, text=True, check=True).stdout
        for line in listing.splitlines():
            parts = line.split("=>")
            if len(parts) == 2 and parts[1].split() and not parts[0].strip().startswith(SYSTEM_LIBRARIES):
                library = Path(parts[1].split()[0])
                found[library.name] = library
    with tarfile.open(path, "w:xz", preset=6) as archive:
        for name, library in sorted(found.items()):
            archive.add(str(library.resolve()), arcname=name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / ".peers")
    parser.add_argument("--only")
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    if shutil.which(CLANG) is None or not (LLVM_LIB / "libomptarget.so.19.1").exists():
        print("bench/peers needs clang-19 and libomp-19-dev: apt-get install clang-19 libomp-19-dev",
              file=sys.stderr)
        return 1
    cuda = cuda12(Path(tempfile.gettempdir()) / "omp2gpu-peers-cuda12")
    bin_dir = options.out / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    programs = all_programs(options.only)
    with ThreadPoolExecutor(options.jobs) as pool:
        built = list(pool.map(lambda p: build(p, cuda, bin_dir), programs))
    (options.out / "programs.json").write_text(json.dumps([p.as_json() for p in programs], indent=1) + "\n")
    if not (options.out / "runtime.tar.xz").exists():
        pack_runtime(options.out / "runtime.tar.xz")
    print(f"Clang 19 built {sum(built)} of {len(programs)} programs into {bin_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
