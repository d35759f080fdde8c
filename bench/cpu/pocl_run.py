"""bench/cpu: the kernels as OpenCL C on PoCL's CPU device, timed as the C programs
time themselves (host wall clock around enqueue + finish, so launch costs count).

    python pocl_run.py vadd N REPS LOCAL
    python pocl_run.py monoq DATA ITERATIONS LOCAL QQQL_OUT
    python pocl_run.py empty REPS

LOCAL: work-group size, or 0 for PoCL's own choice. Prints one JSON object.
Needs pyopencl and an OpenCL platform whose name contains "Portable" (PoCL);
run.py looks for a Python that has them.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
import pyopencl as cl

HERE = Path(__file__).resolve().parent


def pocl():
    for platform in cl.get_platforms():
        if "Portable" in platform.name:
            device = platform.get_devices()[0]
            context = cl.Context([device])
            return platform, device, context, cl.CommandQueue(context)
    raise SystemExit("no PoCL platform")


def program(context, name):
    return cl.Program(context, (HERE / "opencl" / name).read_text()).build(options=["-cl-std=CL1.2"])


def sizes(n, local):
    if local <= 0:
        return (max(n, 1),), None
    return (((n + local - 1) // local) * local,), (local,)


def info(platform, device, local):
    return {"platform": f"{platform.name} {platform.version}", "device": device.name,
            "compute_units": device.max_compute_units, "local": local or "auto"}


def vadd(n, reps, local):
    platform, device, context, queue = pocl()
    kernel = program(context, "vadd.cl").vadd
    index = np.arange(n)
    a = np.zeros(n)
    b = (index % 1000).astype(np.float64)
    c = 0.5 * (index % 7).astype(np.float64)
    flags = cl.mem_flags
    global_size, local_size = sizes(n, local)

    def once():                      # vadd.c's vadd_once: buffers, copies in, kernel, copy back
        da = cl.Buffer(context, flags.READ_WRITE | flags.COPY_HOST_PTR, hostbuf=a)
        db = cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=b)
        dc = cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=c)
        kernel(queue, global_size, local_size, da, db, dc, np.int32(n))
        cl.enqueue_copy(queue, a, da)
        queue.finish()
        for buffer in (da, db, dc):
            buffer.release()

    once()
    start = time.perf_counter()
    once()
    single = time.perf_counter() - start
    da = cl.Buffer(context, flags.READ_WRITE | flags.COPY_HOST_PTR, hostbuf=a)
    db = cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=b)
    dc = cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=c)
    kernel.set_args(da, db, dc, np.int32(n))
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        cl.enqueue_nd_range_kernel(queue, kernel, global_size, local_size)
        queue.finish()
        times.append(time.perf_counter() - start)
    cl.enqueue_copy(queue, a, da)
    queue.finish()
    errors = int(np.count_nonzero(a != (reps + 2) * (b + c)))
    return dict(info(platform, device, local), n=n, reps=reps, errors=errors, single_us=single * 1e6,
                best_us=min(times) * 1e6, mean_us=sum(times) / len(times) * 1e6)


def monoq(data_path, iterations, local, out_path):
    platform, device, context, queue = pocl()
    kernel = program(context, "monoq.cl").monoq
    raw = Path(data_path).read_bytes()
    s, num_elem, num_reg = np.frombuffer(raw, np.int32, 3)
    offset = 12
    params = np.frombuffer(raw, np.float64, 5, offset)
    offset += 40
    reg_size = np.frombuffer(raw, np.int32, num_reg, offset)
    reg_start = np.frombuffer(raw, np.int32, num_reg, offset + 4 * num_reg)
    offset += 8 * num_reg
    ints, doubles = [], []
    for _ in range(8):
        ints.append(np.frombuffer(raw, np.int32, num_elem, offset))
        offset += 4 * num_elem
    for _ in range(10):
        doubles.append(np.frombuffer(raw, np.float64, num_elem, offset))
        offset += 8 * num_elem
    flags = cl.mem_flags
    inputs = [cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=np.ascontiguousarray(x))
              for x in ints + doubles]
    qq = np.full(num_elem, -1.0)
    ql = np.full(num_elem, -1.0)
    dqq = cl.Buffer(context, flags.READ_WRITE | flags.COPY_HOST_PTR, hostbuf=qq)
    dql = cl.Buffer(context, flags.READ_WRITE | flags.COPY_HOST_PTR, hostbuf=ql)
    scalars = [np.float64(x) for x in params]
    launches = [(int(reg_size[r]), int(reg_start[r])) for r in range(num_reg) if reg_size[r] > 0]
    times = []
    for sweep in range(iterations + 1):          # sweep 0 warms up, untimed (as lulesh_kernels.c)
        start = time.perf_counter()
        for length, first in launches:
            global_size, local_size = sizes(length, local)
            kernel(queue, global_size, local_size, np.int32(length), np.int32(first), *inputs, dqq, dql,
                   *scalars)
        queue.finish()
        if sweep:
            times.append(time.perf_counter() - start)
    cl.enqueue_copy(queue, qq, dqq)
    cl.enqueue_copy(queue, ql, dql)
    queue.finish()
    Path(out_path).write_bytes(qq.tobytes() + ql.tobytes())
    return dict(info(platform, device, local), s=int(s), elements=int(num_elem), launches=len(launches),
                iterations=iterations, best_us=min(times) * 1e6, mean_us=sum(times) / len(times) * 1e6)


def empty(reps):
    platform, device, context, queue = pocl()
    kernel = program(context, "monoq.cl").empty
    for _ in range(10):
        kernel(queue, (1,), None)
    queue.finish()
    start = time.perf_counter()
    for _ in range(reps):
        kernel(queue, (1,), None)
        queue.finish()
    elapsed = time.perf_counter() - start
    return dict(info(platform, device, 0), reps=reps, per_launch_us=elapsed / reps * 1e6)


def main(argv):
    kind = argv[0]
    if kind == "vadd":
        result = vadd(int(argv[1]), int(argv[2]), int(argv[3]))
    elif kind == "monoq":
        result = monoq(argv[1], int(argv[2]), int(argv[3]), argv[4])
    elif kind == "empty":
        result = empty(int(argv[1]))
    else:
        raise SystemExit(__doc__)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
