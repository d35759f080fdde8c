/* expect: 3:35: error: expected 'static' or 'dynamic' */
int main(void) { int i, s = 0;
#pragma omp parallel for schedule(fastest)
for (i = 0; i < 10; i++) s++;
return s; }
