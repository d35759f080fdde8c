/* expect: 6:36: error: passing a long double to a variadic function is not supported */
#include <stdio.h>
int main(void) {
    long double sum = 0.0L;
    for (int i = 1; i <= 10; i++) sum += 1.0L / i;
    printf("harmonic(10) = %Lf\n", sum);
    return 0;
}
