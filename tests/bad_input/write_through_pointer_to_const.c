/* expect: 3:14: error: cannot assign to an object with const-qualified type 'const double' */
void scale(const double *v, int n) {
    v[n - 1] *= 2.0;
}

int main(void) {
    double a[2] = {1.0, 2.0};
    scale(a, 2);
    return 0;
}
