/* expect: 3:9: error: '#pragma omp declare target' is only allowed at file scope */
int main(void) {
#pragma omp declare target
return 0; }
