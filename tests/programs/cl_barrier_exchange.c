/* Barriers with data exchange: each thread writes its slot, barrier, reads its right
   neighbour's slot (ring), barrier, writes again; five phases. */
#include <stdio.h>
#include <omp.h>
int main(void) {
  long checksum = 0;
  int bad = 0;
  #pragma omp target teams num_teams(1) thread_limit(32) map(tofrom: checksum, bad)
  {
    int ring[32];
    #pragma omp parallel
    {
      int id = omp_get_thread_num(), n = omp_get_num_threads();
      int value = id;
      for (int phase = 0; phase < 5; phase++) {
        ring[id] = value;
        #pragma omp barrier
        int right = ring[(id + 1) % n];
        #pragma omp barrier
        value = right;
      }
      /* after 5 shifts thread id holds (id + 5) % n */
      if (value != (id + 5) % n) {
        #pragma omp atomic
        bad += 1;
      }
      #pragma omp atomic
      checksum += value - id;
    }
  }
  printf("bad %d checksum %ld\n", bad, checksum);
  return checksum < 0 ? 2 : 0;
}
