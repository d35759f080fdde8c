/* Nested parallel regions inside a target region: each thread of the outer region runs
   the inner one as a team of one (thread 0 of 1, level 2), where omp for gives it every
   iteration, single runs once per thread and barrier is a no-op. */
#include <stdio.h>
#include <omp.h>
int main(void) {
  int bad = 0, inner_work = 0, outer_threads = 0, lv = 0;
  #pragma omp target teams num_teams(1) thread_limit(32) map(tofrom: bad, inner_work, outer_threads, lv)
  {
    #pragma omp parallel num_threads(8)
    {
      int outer_id = omp_get_thread_num();
      #pragma omp master
      outer_threads = omp_get_num_threads();
      #pragma omp parallel
      {
        if (omp_get_thread_num() != 0 || omp_get_num_threads() != 1) {
          #pragma omp atomic
          bad += 1;
        }
        if (omp_get_level() != 2) {
          #pragma omp atomic
          bad += 1;
        }
        #pragma omp for
        for (int i = 0; i < 10; i++) {
          #pragma omp atomic
          inner_work += 1;
        }
        #pragma omp barrier
        #pragma omp single
        {
          #pragma omp atomic
          lv += 1;
        }
      }
      if (omp_get_level() != 1 || omp_get_thread_num() != outer_id) {
        #pragma omp atomic
        bad += 1;
      }
    }
  }
  printf("bad %d work_per_thread %d single_per_thread %d\n", bad, inner_work / outer_threads, lv / outer_threads);
  return 0;
}
