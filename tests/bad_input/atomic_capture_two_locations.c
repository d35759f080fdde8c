/* expect: 11:31: error: '#pragma omp atomic capture' uses two different expressions for memory */
#include <stdio.h>

int next_ticket = 0, served = 0;

int main(void) {
    int mine = 0;
#pragma omp parallel
    {
#pragma omp atomic capture
        { mine = next_ticket; served += 1; }
    }
    printf("%d %d\n", next_ticket, served);
    return 0;
}
