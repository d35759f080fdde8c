"""The offload runtime and its C entry points, on the in-memory device: mapping around
launches, parameters, launch configuration, OMP_TARGET_OFFLOAD, and the host fallback.
The device memory routines are test_device_memory.py's, images and declare target
globals test_images.py's."""

from __future__ import annotations

import ctypes
import subprocess
import sys

import pytest
from runtime_harness import ADD_ONE, INT, Entries, add_one, addr, ints, launch_add_one, literal, make_runtime, mapped

from omp2gpu.offload import abi, entry_points, runtime
from omp2gpu.offload.abi import KernelInfo
from omp2gpu.offload.abi import MapType as M
from omp2gpu.offload.devices.host_memory import HostMemoryDevice
from omp2gpu.offload.policy import BLOCKS_PER_MULTIPROCESSOR, launch_configuration


# ----------------------------------------------------------------- a target region
def test_target_maps_passes_parameters_in_order_and_copies_back():
    rt = make_runtime()
    device = rt.states[0].device
    a = ints(1, 2, 3)
    assert launch_add_one(rt, a) == 0
    assert list(a) == [2, 3, 4]
    (launch,) = device.launches
    assert [kind for kind, _ in launch.params] == ["pointer", "bytes"]
    assert launch.params[1][1] == (3).to_bytes(4, "little")
    assert (launch.grid, launch.block) == (1, 64)
    assert device.live_allocations == 0 and len(rt.states[0].data) == 0
    assert len(device.modules) == 1                       # loaded once, on first use


def test_control_loop_kernels_get_one_team_stack_frame_per_block():
    rt = make_runtime()
    device = rt.states[0].device
    stacks = []

    def add_one_with_stack(grid, block, params):
        stacks.append(params[-1])
        add_one(grid, block, params[:-1])
    device.kernels["add_one_stack"] = add_one_with_stack
    rt.register_image("// ptx", {"add_one_stack": KernelInfo(
        "add_one_stack", ["pointer", "bytes"], 64, "control-loop", team_stack_bytes=512)})
    a, n = ints(1, 2, 3), ctypes.c_int(3)
    entries = Entries(mapped(a, M.TO | M.FROM), literal(n))

    def launch(teams):
        assert rt.target(-1, "add_one_stack", *entries.args(), teams, 0, 3) == 0
        return stacks[-1]
    kind, first = launch(4)
    assert kind == "pointer" and first and rt.states[0].team_stack == (first, 4 * 512)
    assert launch(2) == ("pointer", first)                     # kept, not made again
    _, grown = launch(8)
    assert rt.states[0].team_stack == (grown, 8 * 512) and device.live_allocations == 1
    assert list(a) == [4, 5, 6]


def test_kernels_without_a_team_stack_get_no_extra_parameter():
    rt = make_runtime()
    launch_add_one(rt, ints(1))
    assert len(rt.states[0].device.launches[0].params) == 2 and rt.states[0].team_stack == (0, 0)


def test_target_inside_a_data_region_leaves_the_data_on_the_device():
    rt = make_runtime()
    a = ints(1, 2)
    region = Entries((addr(a), addr(a), 8, M.TO | M.FROM))
    rt.data_begin(-1, *region.args())
    assert launch_add_one(rt, a) == 0
    assert launch_add_one(rt, a) == 0
    assert list(a) == [1, 2]                              # still only on the device
    rt.data_update(-1, 1, region.bases, region.begins, region.sizes, [int(M.FROM)])
    assert list(a) == [3, 4]
    a[0] = 100
    rt.data_end(-1, *region.args())
    assert list(a) == [3, 4]


def test_use_device_ptr_returns_the_device_address():
    rt = make_runtime()
    a = ints(1, 2)
    rt.data_begin(-1, *Entries((addr(a), addr(a), 8, M.TO)).args())
    use = Entries((addr(a), addr(a), 0, M.RETURN_PARAM))
    rt.data_begin(-1, *use.args())
    assert use.bases[0] == rt.states[0].data.lookup(addr(a), 8).device_address


@pytest.mark.parametrize("num_teams, thread_limit, trip_count, expected", [
    (0, 0, 1000, (16, 64)),          # default block of the kernel; enough blocks for the loop
    (0, 256, 1000, (4, 256)),        # thread_limit
    (0, 4096, 10, (1, 1024)),        # capped at the device's maximum
    (7, 0, 10 ** 9, (7, 64)),        # num_teams
    (0, 0, 0, (1, 64)),              # no loop: one block
    (0, 1, 10 ** 9, (4 * BLOCKS_PER_MULTIPROCESSOR, 1)),    # capped per multiprocessor
])
def test_launch_configuration(num_teams, thread_limit, trip_count, expected):
    device = HostMemoryDevice(multiprocessor_count=4, max_threads_per_block=1024)
    assert launch_configuration(ADD_ONE, device, num_teams, thread_limit, trip_count) == expected


def test_launch_configuration_without_a_default_block():
    info = KernelInfo("k", [], default_block_size=None)
    assert launch_configuration(info, HostMemoryDevice(), 0, 0, 1000) == (8, 128)


def test_launch_override_keeps_a_region_without_teams_one_team():
    """OMP2GPU_LAUNCH reshapes every kernel, but a region with no teams construct must stay
    one team (several would each run its parallel regions), as serial kernels stay one thread."""
    device = HostMemoryDevice(multiprocessor_count=4, max_threads_per_block=1024)
    teams = KernelInfo("k", [], default_block_size=64)
    one_team = KernelInfo("k", [], default_block_size=64, one_team=True)
    assert launch_configuration(teams, device, 0, 0, 1000, override=(8, 32)) == (8, 32)
    assert launch_configuration(one_team, device, 1, 0, 1000, override=(8, 32)) == (1, 32)


def test_a_region_without_teams_is_one_team_whatever_the_host_asks():
    """The host shapes a launch by the GPU's version of a region; the CPU device's version
    may have no teams construct (a metadirective chose differently there)."""
    one_team = KernelInfo("k", [], default_block_size=64, one_team=True)
    assert launch_configuration(one_team, HostMemoryDevice(), 0, 0, 100000)[0] == 1
    assert launch_configuration(one_team, HostMemoryDevice(), 16, 0, 1000)[0] == 1


def test_kernel_info_checks_parameter_kinds():
    with pytest.raises(ValueError):
        KernelInfo("k", ["pointer", "int"])


def test_device_clause_and_default_device():
    first, second = HostMemoryDevice("first"), HostMemoryDevice("second")
    rt = make_runtime(first, second, environ={"OMP_DEFAULT_DEVICE": "1"})
    assert rt.num_devices() == 2
    assert launch_add_one(rt, ints(1)) == 0
    assert launch_add_one(rt, ints(1), device=0) == 0
    assert len(first.launches) == 1 and len(second.launches) == 1
    assert launch_add_one(rt, ints(1), device=2) == 1     # the initial device: the host runs it
    assert launch_add_one(rt, ints(1), device=5) == 1     # no such device: the host runs it
    assert len(first.launches) + len(second.launches) == 2


# ----------------------------------------------------------------- OMP_TARGET_OFFLOAD
def test_disabled_offload_runs_everything_on_the_host():
    rt = make_runtime(environ={"OMP_TARGET_OFFLOAD": "disabled"})
    a = ints(1)
    assert rt.num_devices() == 0 and not rt.has_devices()
    assert launch_add_one(rt, a) == 1
    rt.data_begin(-1, *Entries((addr(a), addr(a), 4, M.TO)).args())
    assert list(a) == [1]


def test_a_region_run_on_the_host_inside_target_data_sees_and_leaves_the_device_data():
    """__omp2gpu_host_region_begin/_end around a region the device build refused: the
    kernel's results reach the host first, the host's results the device after, so that
    the end of target data copies back what the host region wrote."""
    rt = make_runtime()
    device = rt.states[0].device
    a = ints(1, 2, 3)
    data = Entries(mapped(a, M.TO | M.FROM))
    rt.data_begin(-1, *data.args())
    assert launch_add_one(rt, a) == 0 and list(a) == [1, 2, 3]      # the device's copy changed
    copies = device.copies["to_host"]
    rt.host_region(-1, True)
    assert list(a) == [2, 3, 4] and device.copies["to_host"] == copies + 1
    a[0] = 100                                                        # the host region's write
    rt.host_region(-1, False)
    assert launch_add_one(rt, a) == 0
    rt.data_end(-1, *data.args())
    assert list(a) == [101, 4, 5]


def test_a_host_region_with_nothing_mapped_copies_nothing():
    rt = make_runtime()
    device = rt.states[0].device
    rt.host_region(-1, True)
    rt.host_region(-1, False)
    assert device.copies["to_host"] == device.copies["to_device"] == 0
    runtime.reset([], {"OMP_TARGET_OFFLOAD": "MANDATORY"}).host_region(-1, True)   # no device: quietly


def test_no_device_means_host_fallback():
    rt = runtime.reset([], {})
    assert rt.target(-1, "add_one", 0, [], [], [], [], 0, 0, 0) == 1


def _run_python(code: str, env_extra: dict):
    import os
    env = dict(os.environ, **env_extra)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=60)


def test_mandatory_without_a_device_exits_1():
    result = _run_python(
        "from omp2gpu.offload import runtime\n"
        "runtime.reset([])\n"
        "print('before', flush=True)\n"
        "runtime.target(-1, 'k', 0, [], [], [], [], 0, 0, 0)\n"
        "print('after')\n",
        {"OMP_TARGET_OFFLOAD": "Mandatory"})
    assert result.returncode == 1
    assert result.stdout == "before\n"
    assert result.stderr == ("omp2gpu: error: OMP_TARGET_OFFLOAD=MANDATORY but no device "
                             "is available\n")


def test_mandatory_still_allows_the_initial_device():
    rt = make_runtime(environ={"OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert launch_add_one(rt, ints(1), device=1) == 1


def test_mandatory_failure_exits_1():
    result = _run_python(
        "import ctypes\n"
        "from omp2gpu.offload import runtime\n"
        "from omp2gpu.offload.abi import KernelInfo\n"
        "from omp2gpu.offload.devices.host_memory import HostMemoryDevice\n"
        "device = HostMemoryDevice(); device.fail.add('load_module')\n"
        "rt = runtime.reset([device])\n"
        "rt.register_image('', {'k': KernelInfo('k', [])})\n"
        "rt.target(-1, 'k', 0, [], [], [], [], 0, 0, 0)\n",
        {"OMP_TARGET_OFFLOAD": "mandatory"})
    assert result.returncode == 1
    assert result.stderr.startswith("omp2gpu: error: offload to device 0 failed (load_module failed")


# ----------------------------------------------------------------- failures: back to the host
def test_failing_launch_copies_data_back_and_gives_the_device_up(capsys):
    rt = make_runtime()
    device = rt.states[0].device
    a = ints(1, 2)
    region = Entries((addr(a), addr(a), 8, M.TO | M.FROM))
    rt.data_begin(-1, *region.args())
    assert launch_add_one(rt, a) == 0                     # the device now holds [2, 3]
    device.fail.add("launch")
    assert launch_add_one(rt, a) == 1
    err = capsys.readouterr().err
    assert err == ("omp2gpu: warning: offload to device 0 failed (launch failed (injected by the "
                   "test)); running the region on the host\n")
    assert list(a) == [2, 3]                              # saved before the host fallback
    assert device.live_allocations == 0 and not rt.states[0].usable
    device.fail.clear()
    copies = sum(device.copies.values())
    assert launch_add_one(rt, a) == 1                     # the host runs every later region
    rt.data_update(-1, *region.args())
    rt.data_end(-1, *region.args())                       # no-ops: the host copy is the data
    assert sum(device.copies.values()) == copies and len(device.launches) == 2
    assert rt.target_is_present(addr(a), 0) == 0


def test_failure_at_synchronize_is_a_failed_launch(capsys):
    rt = make_runtime()
    rt.states[0].device.fail.add("synchronize")
    a = ints(5)
    assert launch_add_one(rt, a) == 1
    assert "offload to device 0 failed (synchronize failed" in capsys.readouterr().err
    assert list(a) == [5]                                 # the region's own copy is not brought back


@pytest.mark.parametrize("operation", ["load_module", "get_function", "allocate", "to_device"])
def test_other_device_failures_fall_back(operation, capsys):
    rt = make_runtime()
    rt.states[0].device.fail.add(operation)
    a = ints(5)
    assert launch_add_one(rt, a) == 1
    assert f"({operation} failed (injected by the test)); running the region on the host" in \
        capsys.readouterr().err
    assert list(a) == [5] and rt.states[0].device.live_allocations == 0


def test_a_kernel_without_device_code_falls_back(capsys):
    rt = make_runtime(kernels=False)
    assert launch_add_one(rt, ints(1)) == 1
    assert "no device code for kernel 'add_one'" in capsys.readouterr().err


def test_parameter_mismatch_falls_back(capsys):
    rt = make_runtime()
    a = ints(1)
    entries = Entries(mapped(a, M.TO | M.FROM))           # the kernel wants two parameters
    assert rt.target(-1, "add_one", *entries.args(), 0, 0, 1) == 1
    assert "takes parameters (pointer, bytes) but the host passed (pointer)" in capsys.readouterr().err


def test_failing_data_region_gives_the_device_up(capsys):
    rt = make_runtime()
    rt.states[0].device.fail.add("allocate")
    a = ints(1)
    rt.data_begin(-1, *Entries((addr(a), addr(a), 4, M.TO)).args())
    assert "running target regions on the host from now on" in capsys.readouterr().err
    assert launch_add_one(rt, a) == 1


def test_partially_mapped_is_a_fatal_error(monkeypatch):
    class Fatal(Exception):
        pass

    def fatal(text):
        raise Fatal(text)

    monkeypatch.setattr(runtime, "fatal", fatal)
    rt = make_runtime()
    a = ints(*range(10))
    rt.data_begin(-1, *Entries((addr(a), addr(a), 5 * INT, M.TO)).args())
    with pytest.raises(Fatal, match="partially mapped"):
        rt.data_begin(-1, *Entries((addr(a), addr(a, 3), 5 * INT, M.TO)).args())
    with pytest.raises(Fatal, match=r"^prog.c:7:9: host range .* is partially mapped"):
        rt.data_begin(-1, *Entries((addr(a), addr(a, 3), 5 * INT, M.TO)).args(), where="prog.c:7:9")


# ----------------------------------------------------------------- the C entry points
def test_every_abi_entry_point_has_a_callback():
    names = {value for key, value in vars(abi).items() if key.startswith("ENTRY_")}
    assert names == set(entry_points.CALLBACKS)


def test_install_registers_every_symbol():
    class Binding:
        def __init__(self):
            self.symbols = {}

        def add_symbol(self, name, address):
            self.symbols[name] = address

    binding = Binding()
    entry_points.install(binding)
    assert set(binding.symbols) == set(entry_points.CALLBACKS)
    assert all(isinstance(a, int) and a for a in binding.symbols.values())


def test_target_through_the_c_entry_point():
    make_runtime()
    a, n = ints(10, 20, 30), ctypes.c_int(3)
    bases = (ctypes.c_void_p * 2)(addr(a), addr(n))
    sizes = (ctypes.c_int64 * 2)(12, 4)
    types = (ctypes.c_int64 * 2)(int(M.TO | M.FROM | M.TARGET_PARAM), int(M.LITERAL | M.TARGET_PARAM))
    target = entry_points.CALLBACKS[abi.ENTRY_TARGET]
    assert target(-1, b"add_one", 2, bases, bases, sizes, types, 0, 0, 3, b"prog.c:4:13") == 0
    assert list(a) == [11, 21, 31]


def test_use_device_ptr_through_the_c_entry_point():
    rt = make_runtime()
    a = ints(1, 2)
    bases = (ctypes.c_void_p * 1)(addr(a))
    sizes, types = (ctypes.c_int64 * 1)(8), (ctypes.c_int64 * 1)(int(M.TO))
    entry_points.CALLBACKS[abi.ENTRY_DATA_BEGIN](-1, 1, bases, bases, sizes, types, b"prog.c:3:13")
    pointer = (ctypes.c_void_p * 1)(addr(a, 1))
    zero, use = (ctypes.c_int64 * 1)(0), (ctypes.c_int64 * 1)(int(M.RETURN_PARAM))
    entry_points.CALLBACKS[abi.ENTRY_DATA_BEGIN](-1, 1, pointer, pointer, zero, use, None)
    assert pointer[0] == rt.states[0].data.lookup(addr(a), 8).device_address + INT


def test_device_memory_entry_points():
    make_runtime()
    assert entry_points.CALLBACKS[abi.ENTRY_NUM_DEVICES]() == 1
    pointer = entry_points.CALLBACKS[abi.ENTRY_TARGET_ALLOC](16, 0)
    assert pointer
    assert entry_points.CALLBACKS[abi.ENTRY_TARGET_ALLOC](16, 9) is None      # NULL
    host = ints(1, 2, 3, 4)
    memcpy = entry_points.CALLBACKS[abi.ENTRY_TARGET_MEMCPY]
    assert memcpy(pointer, addr(host), 16, 0, 0, 0, 1) == 0
    assert entry_points.CALLBACKS[abi.ENTRY_TARGET_IS_PRESENT](addr(host), 0) == 0
    entry_points.CALLBACKS[abi.ENTRY_TARGET_FREE](pointer, 0)
    g = ctypes.c_int(3)
    entry_points.CALLBACKS[abi.ENTRY_REGISTER_GLOBAL](addr(g), b"g", 4)
    assert runtime.runtime().images.globals["g"] == (addr(g), 4, False)
    entry_points.CALLBACKS[abi.ENTRY_REGISTER_LINK_GLOBAL](addr(g), b"linked", 4)
    assert runtime.runtime().images.globals["linked"] == (addr(g), 4, True)


def test_an_exception_never_crosses_into_c(monkeypatch, capsys):
    assert make_runtime().states[0].usable

    def broken(*args):
        raise KeyError("boom")

    monkeypatch.setattr(runtime, "target", broken)
    monkeypatch.setattr(runtime, "data_begin", broken)
    bases = (ctypes.c_void_p * 1)()
    sizes = types = (ctypes.c_int64 * 1)()
    assert entry_points.CALLBACKS[abi.ENTRY_TARGET](-1, b"k", 0, bases, bases, sizes, types, 0, 0, 0, None) == 1
    err = capsys.readouterr().err
    assert err.startswith("omp2gpu: error: __omp2gpu_target: internal error in the offload runtime: "
                          "KeyError: 'boom'\n")
    assert "Traceback" not in err
    assert not runtime.runtime().states[0].usable         # the state is in doubt: host from now on
    entry_points.CALLBACKS[abi.ENTRY_DATA_BEGIN](-1, 0, bases, bases, sizes, types, None)
    assert "__omp2gpu_target_data_begin: internal error" in capsys.readouterr().err


# ----------------------------------------------------------------- the caller's device data
def test_device_data_is_lent_until_the_loan_ends_and_kernels_get_its_address():
    rt = make_runtime()
    device = rt.states[0].device
    count = 3
    memory = device.allocate(count * INT)
    ctypes.memmove(memory, ints(1, 2, 3), count * INT)
    n = ctypes.c_int(count)
    entries = Entries((memory, memory, count * INT, M.TO | M.FROM | M.TARGET_PARAM), literal(n))
    rt.images.activate(rt.states[0])
    loan = rt.lend_device_data([(memory, count * INT), (memory + INT, INT)])
    assert len(rt.states[0].data) == 1                     # one array passed twice: one range
    assert rt.target(-1, "add_one", *entries.args(), 0, 0, count) == 0
    rt.end_loan(loan)
    assert list((ctypes.c_int * count).from_address(memory)) == [2, 3, 4]
    assert device.launches[0].params[0] == ("pointer", memory)
    assert sum(device.copies.values()) == 0 and len(rt.states[0].data) == 0


def test_device_data_waits_for_the_arrays_streams():
    rt = make_runtime()
    device = rt.states[0].device
    waited = []
    device.wait_for_stream = waited.append
    memory = device.allocate(INT)
    rt.end_loan(rt.lend_device_data([(memory, INT)], {7}))
    assert waited == [7]


@pytest.mark.parametrize("environ, message", [
    ({"OMP_TARGET_OFFLOAD": "DISABLED"}, "offloading is disabled"),
    ({"OMP_DEFAULT_DEVICE": "1"}, "target regions run on the host"),
    ({}, r"memory at 0x[0-9a-f]+ is not on device 0 \(host-memory\)"),
])
def test_device_data_the_default_device_does_not_hold_is_refused(environ, message):
    rt = make_runtime(environ=environ)
    host_memory = ints(1)
    with pytest.raises(LookupError, match=message):
        rt.lend_device_data([(addr(host_memory), INT)])


def test_the_copy_log_has_a_line_per_copy(tmp_path):
    log = tmp_path / "copies.log"
    rt = make_runtime(environ={"OMP2GPU_COPY_LOG": str(log)})
    assert launch_add_one(rt, ints(1, 2)) == 0
    assert log.read_text().splitlines() == ["to-device bytes=8 device='host-memory'",
                                            "to-host bytes=8 device='host-memory'"]


def test_each_mpi_rank_of_a_node_takes_its_own_gpu():
    """Under mpiexec, node-local rank 3 of a node with two GPUs runs on device 1, and the
    program's omp_get_default_device (which reads OMP_DEFAULT_DEVICE) is told so."""
    environ = {"MPI_LOCALRANKID": "3"}
    rt = make_runtime(HostMemoryDevice(), HostMemoryDevice(), environ=environ)
    assert rt.num_devices() == 2
    assert rt.default_device == 1 and environ["OMP_DEFAULT_DEVICE"] == "1"
    a = ints(1, 2, 3)
    launch_add_one(rt, a)
    assert list(a) == [2, 3, 4]
