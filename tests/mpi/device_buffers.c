/* MPI calls given device addresses (use_device_ptr), as CUDA-aware codes make them:
 * tests/test_mpi_staging.py. Inside the use_device_ptr region the pointers hold device
 * addresses, which only MPI (and kernels) may use. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096

int main(int argc, char **argv) {
    int rank, ranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    int next = (rank + 1) % ranks, previous = (rank + ranks - 1) % ranks;
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    double *strided = malloc(2 * N * sizeof *strided), *sums = calloc(4, sizeof *sums);
    for (int i = 0; i < N; i++) {
        a[i] = rank * 1000.0 + i;
        b[i] = -1.0;
        c[i] = -2.0;
        strided[2 * i] = strided[2 * i + 1] = -3.0;
    }
    sums[2] = rank == 0 ? 42.0 : 0.0;      /* broadcast from the root's device copy below */
    MPI_Datatype every_other;
    MPI_Type_vector(N / 2, 1, 2, MPI_DOUBLE, &every_other);
    MPI_Type_commit(&every_other);
    #pragma omp target data map(tofrom: a[0:N], b[0:N], c[0:N], strided[0:2*N], sums[0:4])
    {
        #pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++) a[i] *= 2.0;        /* only the device has these values */
        #pragma omp target data use_device_ptr(a, b, c, strided, sums)
        {
            MPI_Request requests[2];
            MPI_Sendrecv(a, N, MPI_DOUBLE, next, 0, b, N, MPI_DOUBLE, previous, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            MPI_Irecv(c, N / 2, MPI_DOUBLE, previous, 1, MPI_COMM_WORLD, &requests[0]);
            MPI_Isend(a + N / 2, N / 2, MPI_DOUBLE, next, 1, MPI_COMM_WORLD, &requests[1]);
            MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
            if (rank == 0) MPI_Send(a, N / 2, MPI_DOUBLE, next, 2, MPI_COMM_WORLD);
            if (rank == 1) MPI_Recv(strided, 1, every_other, previous, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Allreduce(a, sums, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            MPI_Allreduce(MPI_IN_PLACE, a + 1, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            MPI_Reduce(a + 2, sums + 1, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            MPI_Bcast(sums + 2, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        }
        #pragma omp target update from(sums[0:4])
        if (rank == 0) {
            #pragma omp target teams distribute parallel for
            for (int i = 0; i < N; i++) b[i] += c[i % (N / 2)];
        }
    }
    double checksum = 0.0, strided_sum = 0.0;
    for (int i = 0; i < N; i++) checksum += b[i] * (i % 5 + 1) + a[i];
    for (int i = 0; i < 2 * N; i++) strided_sum += strided[i] * (i % 3 + 1);
    for (int r = 0; r < ranks; r++) {
        if (r == rank)
            printf("rank %d: checksum %.1f strided %.1f sums %.1f %.1f %.1f\n", rank, checksum, strided_sum,
                   sums[0], rank == 0 ? sums[1] : 0.0, sums[2]);
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Type_free(&every_other);
    free(a); free(b); free(c); free(strided); free(sums);
    MPI_Finalize();
    return 0;
}
