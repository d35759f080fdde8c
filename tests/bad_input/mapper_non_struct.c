/* expect: 3:28: error: '#pragma omp declare mapper' for type 'double *': a mapper maps a struct or union type */
/* A mapper for a pointer type: mappers are for structs. */
#pragma omp declare mapper(double *p) map(p[0:8])

int main(void) {
    return 0;
}
