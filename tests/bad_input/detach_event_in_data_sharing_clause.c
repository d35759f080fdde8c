/* expect: 7:45: error: event handle 'event' of 'detach' cannot appear in a 'firstprivate' clause */
#include <omp.h>

int main(void)
{
    omp_event_handle_t event;
#pragma omp task detach(event) firstprivate(event)
    omp_fulfill_event(event);
    return 0;
}
