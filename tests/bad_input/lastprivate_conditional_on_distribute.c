/* expect: 9:79: error: the 'conditional' modifier of 'lastprivate' is not valid on a 'distribute' construct: only on a worksharing-loop or simd construct */
#include <stdio.h>

int main(void)
{
    int last = -1;
    int data[8] = {3, 0, 5, 0, 0, 7, 0, 0};
    /* gcc: "conditional 'lastprivate' clause on 'distribute' construct" */
    #pragma omp target teams distribute parallel for lastprivate(conditional: last) map(to: data)
    for (int i = 0; i < 8; i++)
        if (data[i] > 0)
            last = i;
    printf("%d\n", last);
    return 0;
}
