/* OpenMP 5.0's lastprivate(conditional:) in a small event-detection code: for each
 * channel of a recording, the last sample over a threshold, the last zero crossing and
 * the value seen there, found by loops whose iterations the threads share in any order
 * (static, dynamic and guided schedules, a collapsed nest, `for simd`, an orphaned `for`
 * in a function the parallel region calls). The sequentially last assignment wins, as
 * if one thread had run the loop; an item no iteration assigns keeps its value. A target
 * region with the clause runs on the host (no device picks the last assignment). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CHANNELS 4
#define SAMPLES 3000

typedef struct {
  double *sample[CHANNELS];
  int length;
} recording_t;

static double signal_at(int channel, int i)
{
  /* a deterministic wobble whose crossings land at irregular places */
  int k = (i * (37 + 6 * channel) + 11 * channel) % 1009;
  return (double)(k - 504) / 100.0;
}

int last_spike = -1;   /* an orphaned loop's item: file scope, shared by the team */

static void find_last_spike(const double *s, int n, double level)
{
  #pragma omp for lastprivate(conditional: last_spike) schedule(guided, 7)
  for (int i = 0; i < n; i++)
    if (s[i] > level)
      last_spike = i;
}

int main(int argc, char **argv)
{
  double threshold = 4.9;
  int opt;
  while ((opt = getopt(argc, argv, "t:")) != -1) {
    if (opt == 't') threshold = atof(optarg);
    else { fprintf(stderr, "usage: %s [-t threshold]\n", argv[0]); return 2; }
  }
  recording_t rec;
  rec.length = SAMPLES;
  for (int c = 0; c < CHANNELS; c++) {
    rec.sample[c] = malloc(sizeof(double) * SAMPLES);
    for (int i = 0; i < SAMPLES; i++) rec.sample[c][i] = signal_at(c, i);
  }

  for (int c = 0; c < CHANNELS; c++) {
    const double *s = rec.sample[c];
    int over = -1, crossing = -1, never = -42;
    double at_crossing = 0.0;
    /* two items assigned in different iterations, one never assigned */
    #pragma omp parallel for lastprivate(conditional: over, crossing, at_crossing, never) \
        schedule(dynamic, 16)
    for (int i = 1; i < rec.length; i++) {
      if (s[i] > threshold)
        over = i;
      if ((s[i - 1] < 0.0) != (s[i] < 0.0)) {
        crossing = i;
        at_crossing = s[i];
      }
      if (s[i] > 1000.0)
        never = i;
    }
    printf("channel %d: last over %.2f at %d, last crossing at %d (%.2f), never %d\n", c, threshold, over,
           crossing, at_crossing, never);
  }

  /* a collapsed nest: the last (channel, sample) pair, in the nest's order */
  int last_pair = -1;
  long compound = 0;
  #pragma omp parallel for collapse(2) lastprivate(conditional: last_pair) schedule(static, 5)
  for (int c = 0; c < CHANNELS; c++)
    for (int i = 0; i < SAMPLES; i += 3)
      if (rec.sample[c][i] < -5.0 + 0.02 * c)
        last_pair = c * SAMPLES + i;
  compound = last_pair >= 0 ? last_pair / SAMPLES * 100000L + last_pair % SAMPLES : -1;
  printf("last low sample: channel and index %ld\n", compound);

  /* for simd, with increments through the compound assignment and ++ */
  int steps = 0;
  #pragma omp parallel for simd lastprivate(conditional: steps)
  for (int i = 0; i < SAMPLES; i++)
    if (rec.sample[1][i] > 5.0) {
      steps = i;
      steps += 1000000;
    }
  printf("last high on channel 1, plus a million: %d\n", steps);

  /* an orphaned for: the item is a file-scope variable */
  #pragma omp parallel
  find_last_spike(rec.sample[2], SAMPLES, threshold);
  printf("channel 2: last spike %d\n", last_spike);

  /* in a target region: runs on the host, where the threads pick the last assignment */
  int target_last = -1;
  double *s3 = rec.sample[3];
  #pragma omp target parallel for lastprivate(conditional: target_last) map(to: s3[0:SAMPLES])
  for (int i = 0; i < SAMPLES; i++)
    if (s3[i] < -5.0)
      target_last = i;
  printf("channel 3: last low sample %d\n", target_last);

  for (int c = 0; c < CHANNELS; c++) free(rec.sample[c]);
  return 0;
}
