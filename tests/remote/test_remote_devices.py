"""Remote devices (docs/remote.md): two `omp2gpu serve` processes on the loopback with the
CPU device, and (marked gpu) with a GPU each (one per GPU where there are two); a native
program's device(n) regions run on them and print gcc's output; a wrong token is refused;
a server killed in the middle of a time-step loop is a warning naming it and the regions
fall back to the host (OMP_TARGET_OFFLOAD=DEFAULT) with the right answer."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from remote_servers import start_server, url

from omp2gpu import native_link
from omp2gpu.driver import CompileOptions

PROGRAM = Path(__file__).parents[1] / "programs" / "multi_device_stencil_halves.c"
IN_PLACE = Path(__file__).parents[1] / "programs" / "remote_in_place_time_steps.c"
HALO = Path(__file__).parents[1] / "programs" / "device_to_device_halo_memcpy.c"
TOKEN = "remote-test-secret"
pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is the reference")
pytest.importorskip("libucx")


KINDS = ["cpu", pytest.param("gpu", marks=pytest.mark.gpu)]


@pytest.fixture(scope="module", params=KINDS)
def kind(request) -> str:
    """The device kind the servers serve: every test runs with CPU-device servers, and with
    GPU servers where there is a GPU."""
    return request.param


@pytest.fixture(scope="module")
def servers(kind):
    started = [start_server(TOKEN, kind=kind, index=index) for index in range(2)]
    yield started
    for server in started:
        server.kill()
        server.wait()


@pytest.fixture(scope="module")
def binaries(tmp_path_factory):
    return build(PROGRAM, tmp_path_factory.mktemp("remote"))


def build(program: Path, folder: Path) -> tuple[Path, Path]:
    ours, reference = folder / "ours", folder / "gcc"
    native_link.link([str(program)], CompileOptions(), str(ours))
    subprocess.run(["gcc", "-fopenmp", "-foffload=disable", "-O2", str(program), "-o", str(reference)], check=True)
    return ours, reference


def run(binary, devices: str, token: str = TOKEN, args=(), **extra) -> subprocess.CompletedProcess:
    env = {**os.environ, "OMP2GPU_DEVICES": devices, "OMP2GPU_REMOTE_TOKEN": token, **extra}
    return subprocess.run([str(binary), *args], env=env, capture_output=True, text=True, timeout=120)


def test_device_n_over_two_servers_prints_gccs_output(servers, binaries, tmp_path):
    log = tmp_path / "offload.log"
    ours = run(binaries[0], ",".join(map(url, servers)), OMP2GPU_OFFLOAD_LOG=str(log),
               OMP_TARGET_OFFLOAD="MANDATORY")
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == subprocess.run([str(binaries[1])], capture_output=True, text=True).stdout
    launches = log.read_text()
    assert all(url(server) in launches for server in servers)     # both servers ran kernels


@pytest.mark.parametrize("drop_every", [3, 7])
def test_dropped_links_are_made_again_and_resent_commands_not_redone(servers, tmp_path, drop_every):
    """The kernel updates device data in place: a resent launch run twice would change the
    answer (it does, with the server's resend check taken out)."""
    ours, reference = build(IN_PLACE, tmp_path)
    done = run(ours, url(servers[1]), OMP2GPU_REMOTE_TEST_DROP=str(drop_every), OMP_TARGET_OFFLOAD="MANDATORY",
               LIBOMPTARGET_DEBUG="1")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == subprocess.run([str(reference)], capture_output=True, text=True).stdout
    assert done.stderr.count("link made again") >= 5


def test_memcpy_between_two_servers_goes_server_to_server(servers, tmp_path):
    ours, reference = build(HALO, tmp_path)
    expected = subprocess.run([str(reference)], capture_output=True, text=True).stdout
    direct = run(ours, ",".join(map(url, servers)), OMP_TARGET_OFFLOAD="MANDATORY", LIBOMPTARGET_DEBUG="1")
    assert direct.returncode == 0 and direct.stdout == expected, direct.stderr[-2000:]
    assert direct.stderr.count("server to server") == 2 * 16        # every halo exchange, both ways
    staged = run(ours, ",".join(map(url, servers)), OMP_TARGET_OFFLOAD="MANDATORY", LIBOMPTARGET_DEBUG="1",
                 OMP2GPU_REMOTE_PEER="0")
    assert staged.stdout == expected and "server to server" not in staged.stderr


def test_a_wrong_token_is_refused(servers, binaries, tmp_path):
    log = tmp_path / "offload.log"
    done = run(binaries[0], url(servers[0]), token="not-the-secret", OMP2GPU_OFFLOAD_LOG=str(log))
    assert "refused the token" in done.stderr and url(servers[0]) in done.stderr
    assert not log.exists() or not log.read_text()          # no device: every region ran on the host


def test_a_server_killed_mid_loop_falls_back_with_the_right_answer(kind, binaries, tmp_path):
    log = tmp_path / "server.err"
    with log.open("w") as errors:
        victim = start_server(TOKEN, stderr=errors, kind=kind, OMP2GPU_SERVE_TRACE="1")
    try:
        program = subprocess.Popen([str(binaries[0]), "4"], env={
            **os.environ, "OMP2GPU_DEVICES": url(victim), "OMP2GPU_REMOTE_TOKEN": TOKEN,
            "OMP2GPU_REMOTE_TEST_DELAY_US": "20000"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # the run takes ~2.4 s after its first kernel (20 ms a request): killed mid-loop
        wait_for(log, "ran from")
        victim.send_signal(signal.SIGKILL)
        out, err = program.communicate(timeout=120)
    finally:
        victim.kill()
        victim.wait()
    assert program.returncode == 0, err
    assert out == subprocess.run([str(binaries[1])], capture_output=True, text=True).stdout
    assert url(victim) in err and "gone" in err


def wait_for(log: Path, text: str, seconds: float = 60) -> None:
    """Until the server's log says `text` (a GPU server's first command waits for its context
    and the image's JIT: a fixed sleep is too short there)."""
    deadline = time.time() + seconds
    while text not in log.read_text():
        assert time.time() < deadline, f"the server never logged {text!r}: {log.read_text()}"
        time.sleep(0.05)


def test_a_client_killed_has_its_server_memory_freed(kind, tmp_path):
    ours, _ = build(IN_PLACE, tmp_path)                 # its target data region holds two buffers
    log = tmp_path / "server.err"
    with log.open("w") as errors:
        server = start_server(TOKEN, stderr=errors, kind=kind, OMP2GPU_SERVE_GRACE="0",
                              OMP2GPU_SERVE_TRACE="1")
    try:
        client = subprocess.Popen([str(ours)], env={**os.environ, "OMP2GPU_DEVICES": url(server),
                                                    "OMP2GPU_REMOTE_TOKEN": TOKEN,
                                                    "OMP2GPU_REMOTE_TEST_DELAY_US": "50000"},
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(log, "ran from")                        # its buffers are on the server by then
        client.kill()
        client.wait()
        deadline = time.time() + 20
        while "freed" not in log.read_text() and time.time() < deadline:
            time.sleep(0.2)
    finally:
        server.kill()
        server.wait()
    assert re.search(r"a client left; its [1-9]\d* allocation\(s\) freed", log.read_text()), log.read_text()


LONG_KERNELS = Path(__file__).parent / "two_servers_long_kernels.c"
KERNEL_RAN = re.compile(r"kernel \S+ ran from (\d+) to (\d+) us")


def kernel_times(server_log: Path) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in KERNEL_RAN.findall(server_log.read_text())]


def test_nowait_kernels_on_two_servers_overlap(kind, tmp_path):
    """`target nowait` on device 0 and device 1 (two servers), then taskwait: each server's
    kernel starts before the other's ends, in at least one of four rounds (the servers' own
    clocks, OMP2GPU_SERVE_TRACE).
    With queued launches off (OMP2GPU_NOWAIT_STREAMS=0) they run one after the other, which
    shows the check can fail."""
    ours, reference = build(LONG_KERNELS, tmp_path)
    logs = [tmp_path / f"server{i}.err" for i in range(2)]
    started = []
    try:
        for index, log in enumerate(logs):
            with log.open("w") as errors:
                started.append(start_server(TOKEN, stderr=errors, kind=kind, index=index,
                                            OMP2GPU_SERVE_TRACE="1"))
        devices = ",".join(map(url, started))
        expected = subprocess.run([str(reference), "100000000"], capture_output=True, text=True).stdout
        done = run(ours, devices, args=["100000000"], OMP_TARGET_OFFLOAD="MANDATORY")
        assert done.returncode == 0 and done.stdout == expected, done.stderr[-2000:]
        first, second = (kernel_times(log) for log in logs)
        assert len(first) == len(second) == 4
        # Both running at once in at least one of the four rounds: a loaded machine may start
        # one server's kernel late in a round, but launches that wait for each other never
        # overlap (the second run below).
        overlapping = [max(a[0], b[0]) < min(a[1], b[1]) for a, b in zip(first, second)]
        assert any(overlapping), (first, second)
        waited = run(ours, devices, args=["100000000"], OMP_TARGET_OFFLOAD="MANDATORY", OMP2GPU_NOWAIT_STREAMS="0")
        assert waited.stdout == expected
        first, second = (kernel_times(log)[4:] for log in logs)
        assert all(max(a[0], b[0]) >= min(a[1], b[1]) for a, b in zip(first, second)), (first, second)
    finally:
        for server in started:
            server.kill()
            server.wait()


@pytest.mark.parametrize("drop_every", [2, 3])
def test_queued_launches_are_resent_after_a_dropped_link_not_redone(servers, tmp_path, drop_every):
    """Queued (nowait) launches in flight on two servers (two on each) when links drop: the
    unanswered ones are resent in order and each runs once (the kernels update device
    memory in place)."""
    ours, reference = build(LONG_KERNELS, tmp_path)
    expected = subprocess.run([str(reference), "2000000"], capture_output=True, text=True).stdout
    done = run(ours, ",".join(map(url, servers)), args=["2000000"], OMP2GPU_REMOTE_TEST_DROP=str(drop_every),
               OMP_TARGET_OFFLOAD="MANDATORY", LIBOMPTARGET_DEBUG="1")
    assert done.returncode == 0 and done.stdout == expected, done.stderr[-2000:]
    assert done.stderr.count("link made again") >= 4


@pytest.mark.parametrize("name", ["target_nowait_is_device_ptr_chunks", "target_nowait_depend_timesteps",
                                  "target_nowait_taskgroup_barrier", "target_task_depend_5x"])
def test_target_tasks_in_teams_and_sequential_code_over_two_servers(servers, tmp_path, name):
    """nowait regions made by a team's threads (synchronous remote launches, each blocking only
    its thread) and in sequential code (queued): gcc's output, nothing left waiting."""
    ours, reference = build(Path(__file__).parents[1] / "programs" / f"{name}.c", tmp_path)
    done = run(ours, ",".join(map(url, servers)), OMP_TARGET_OFFLOAD="MANDATORY")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == subprocess.run([str(reference)], capture_output=True, text=True).stdout


def test_clients_at_once_each_have_their_own_memory(servers, tmp_path):
    """Three programs on the same two servers at the same time, each updating its own device
    data in place over time steps (remote_in_place_time_steps.c): each prints gcc's output,
    so no client's commands reached another's memory or images (the server serves them in
    turn, one command at a time)."""
    ours, reference = build(IN_PLACE, tmp_path)
    expected = subprocess.run([str(reference)], capture_output=True, text=True).stdout
    env = {**os.environ, "OMP2GPU_DEVICES": ",".join(map(url, servers)), "OMP2GPU_REMOTE_TOKEN": TOKEN,
           "OMP_TARGET_OFFLOAD": "MANDATORY"}
    clients = [subprocess.Popen([str(ours)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for _ in range(3)]
    for client in clients:
        out, err = client.communicate(timeout=120)
        assert client.returncode == 0 and out == expected, err[-2000:]
