"""Which target regions of the corpus the GPU build may send to the host, asked in one
place (the ptxas corpus test, tests/codegen/test_device_codegen.py, and the GPU corpus
runs, tests/test_programs.py). Any other "runs on the host" remark is a device
regression; a region listed here runs on the host by design, for the reason given,
which must be the remark's own (so a region sent to the host for another reason still
fails)."""

from __future__ import annotations

# program stem -> the remarks' reasons for its regions that run on the host by design
HOST_BY_DESIGN: dict[str, tuple[str, ...]] = {
    # NVPTX has no 80-bit floating type (Clang refuses long double in device code too)
    "long_double_80bit": ("long double (the host's x86 80-bit type) has no GPU equivalent",),
    "long_double_atomics": ("long double (the host's x86 80-bit type) has no GPU equivalent",),
    # its long double _Complex region (the float and double ones run on the GPU)
    "complex_target_captures": ("long double (the host's x86 80-bit type) has no GPU equivalent",),
    # long double between device regions inside target data: the launcher's host-region calls
    "target_data_host_region": ("long double (the host's x86 80-bit type) has no GPU equivalent",),
    # under --scheme control-loop: a VLA private to a teams or target construct would be
    # team-shared, which needs a size known at compile time (auto runs these regions on the GPU)
    "vla_private_firstprivate": tuple(
        f"variable-length array '{name}' shared by a team: its team-shared copy needs a size known at "
        "compile time" for name in ("table", "steps")),
    # under --scheme control-loop: taskloop is not lowered by the control loop (auto runs these
    # regions on the GPU with the one-thread scheme)
    "target_taskloop_mapped_locals": ("'#pragma omp taskloop' is not supported inside a GPU target region",),
    # user-defined reductions (declare reduction) are host-only: their combiner is arbitrary C
    "host_declare_reduction_structs": ("user-defined reduction 'csum' is not supported on the device",),
    # a global named through an `extern` declaration inside the region (or a callee): no
    # capture maps it and it is not `declare target` (the file-scope name's region runs on the GPU)
    "extern_declared_in_region": tuple(
        f"'{name}' is used on the device but is neither mapped nor 'declare target'" for name in ("offset", "scale")),
    # lastprivate(conditional:): the host's threads pick the last assigning iteration; no device does
    "lastprivate_conditional_search": ("'lastprivate(conditional: ...)' is not supported on the device",),
    # the control loop does not order ordered blocks (it ran them as they came)
    "target_parallel_for_ordered": ("'#pragma omp ordered' in a parallel region is not supported on the "
                                    "GPU yet",),
}


# programs none of whose target regions any device runs (every region is listed above, under
# every scheme): the CPU device launches nothing for them either
EVERY_REGION_ON_HOST = {"long_double_80bit", "long_double_atomics", "host_declare_reduction_structs",
                        "target_parallel_for_ordered", "lastprivate_conditional_search"}


def unexpected_host_regions(program: str, remarks) -> list[str]:
    """The "runs on the host" remarks of `program` (a corpus stem) not listed above."""
    expected = HOST_BY_DESIGN.get(program, ())
    return [remark for remark in remarks if "runs on the host" in remark
            and not any(remark.endswith(f"runs on the host: {reason}") for reason in expected)]
