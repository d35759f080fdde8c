/* expect: 4:39: error: reduction variable 's' must be of arithmetic type */
struct p { int x; };
int main(void) { int i; struct p s = {0};
#pragma omp parallel for reduction(+: s)
for (i = 0; i < 10; i++) s.x++;
return s.x; }
