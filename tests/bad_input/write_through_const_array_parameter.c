/* expect: 3:14: error: cannot assign to an object with const-qualified type 'const double' */
void scale(int n, const double v[n]) {
    v[n - 1] *= 2.0;
}

int main(void) {
    double a[2] = {1.0, 2.0};
    scale(2, a);
    return 0;
}
