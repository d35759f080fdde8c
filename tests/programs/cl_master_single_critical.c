/* master, single (with and without nowait), critical (named and unnamed) and atomic
   inside parallel regions of a target region. */
#include <stdio.h>
#include <omp.h>
int main(void) {
  int master_runs = 0, single_runs = 0, single_nowait_runs = 0, threads = 0;
  long critical_sum = 0, named_sum = 0;
  int broadcast_ok = 0;
  #pragma omp target teams num_teams(1) thread_limit(64) \
      map(tofrom: master_runs, single_runs, single_nowait_runs, threads, critical_sum, named_sum, broadcast_ok)
  {
    int shared_value = 0;
    #pragma omp parallel
    {
      #pragma omp master
      {
        master_runs += 1;
        threads = omp_get_num_threads();
      }
      #pragma omp single
      {
        single_runs += 1;
        shared_value = 42;
      }
      /* the single's implicit barrier: everyone sees 42 */
      if (shared_value == 42) {
        #pragma omp atomic
        broadcast_ok += 1;
      }
      #pragma omp single nowait
      single_nowait_runs += 1;
      #pragma omp critical
      critical_sum += omp_get_thread_num() + 1;
      #pragma omp critical(other)
      {
        long t = named_sum;
        named_sum = t + 2;
      }
    }
  }
  printf("master %d single %d nowait %d broadcast %d critical %d named %d\n", master_runs, single_runs,
         single_nowait_runs, broadcast_ok == threads, critical_sum == (long)threads * (threads + 1) / 2,
         named_sum == 2L * threads);
  return 0;
}
