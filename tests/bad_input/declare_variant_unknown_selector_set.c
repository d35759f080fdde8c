/* expect: 3:41: error: unknown context selector set 'hardware' (expected 'construct', 'device', 'target_device', 'implementation' or 'user') */
void fast(void);
#pragma omp declare variant(fast) match(hardware={kind(gpu)})
void slow(void);
int main(void) { return 0; }
