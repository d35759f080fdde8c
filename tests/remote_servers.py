"""`omp2gpu serve` on the loopback for tests (docs/remote.md): tests/remote's servers and the
corpus's remote-cpu/remote-gpu devices (test_programs.py) start them here."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

from omp2gpu.tools.doctor import gpu_status


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(token: str, kind: str = "cpu", index: int = 0, stderr=None, base_env: dict | None = None,
                 **extra) -> subprocess.Popen:
    """A server of `kind` devices on a free port, listening when this returns; a GPU server
    owns the index-th GPU alone (as one server a machine would; a one-GPU machine's servers
    share it)."""
    env = {**(os.environ if base_env is None else base_env), "OMP2GPU_REMOTE_TOKEN": token, **extra}
    if kind == "gpu":
        env["CUDA_VISIBLE_DEVICES"] = str(index % max(1, gpu_status()[0]))
    server = subprocess.Popen([sys.executable, "-m", "omp2gpu.tools.cli", "serve", "--listen",
                               f"127.0.0.1:{free_port()}", "--devices", kind], env=env, stdout=subprocess.PIPE,
                              stderr=stderr, text=True)
    assert "listening on" in server.stdout.readline(), f"omp2gpu serve --devices {kind} did not start"
    return server


def url(server: subprocess.Popen) -> str:
    return "remote://" + server.args[server.args.index("--listen") + 1]
