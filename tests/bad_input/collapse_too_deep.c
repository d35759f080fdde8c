/* expect: 4:26: error: collapse(2) needs 2 perfectly nested loops */
int main(void) { int i, s = 0;
#pragma omp parallel for collapse(2)
for (i = 0; i < 10; i++) s++;
return s; }
