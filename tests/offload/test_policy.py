"""policy.py: the launcher's rules read from the environment."""


def test_mpi_ranks_spread_over_the_gpus():
    from omp2gpu.offload.policy import node_local_rank, rank_default_device
    assert node_local_rank({"MPI_LOCALRANKID": "3"}) == 3
    assert node_local_rank({"OMPI_COMM_WORLD_LOCAL_RANK": "1"}) == 1
    assert node_local_rank({}) is None
    assert rank_default_device({"MPI_LOCALRANKID": "3"}, 2) == 1
    assert rank_default_device({"SLURM_LOCALID": "2"}, 4) == 2
    # the program's choice wins; one GPU (or none) leaves device 0 as it is
    assert rank_default_device({"MPI_LOCALRANKID": "3", "OMP_DEFAULT_DEVICE": "0"}, 2) is None
    assert rank_default_device({"MPI_LOCALRANKID": "3"}, 1) is None
    assert rank_default_device({}, 4) is None
