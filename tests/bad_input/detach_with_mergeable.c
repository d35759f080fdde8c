/* expect: 7:28: error: 'detach' and 'mergeable' cannot both appear on '#pragma omp task' */
#include <omp.h>

int main(void)
{
    omp_event_handle_t event;
#pragma omp task mergeable detach(event)
    omp_fulfill_event(event);
    return 0;
}
