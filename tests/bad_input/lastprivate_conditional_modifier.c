/* expect: 8:42: error: the 'conditional' modifier of 'lastprivate' (OpenMP 5.0) is not supported */
#include <stdio.h>

int main(void)
{
    int last = -1;
    int data[8] = {3, 0, 5, 0, 0, 7, 0, 0};
    #pragma omp parallel for lastprivate(conditional: last)
    for (int i = 0; i < 8; i++)
        if (data[i] > 0)
            last = i;
    printf("%d\n", last);
    return 0;
}
