/* expect: 3:9: error: variant 'twice' has type 'double (double)', incompatible with 'scale' of type 'int (int)' */
double twice(double x) { return 2 * x; }
#pragma omp declare variant(twice) match(device={kind(host)})
int scale(int x) { return x; }
int main(void) { return scale(0); }
