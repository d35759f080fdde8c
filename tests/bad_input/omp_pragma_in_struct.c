/* expect: 3:9: error: '#pragma omp barrier' is not allowed here */
struct s {
#pragma omp barrier
int a; };
int main(void) { return 0; }
