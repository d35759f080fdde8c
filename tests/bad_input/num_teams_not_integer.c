/* expect: 9:53: error: 'num_teams' needs an integer expression */
/* Fuzz campaign 2026-11-29 (seed 3401001): gcc's "expected integer expression" for a
 * floating num_teams on a host `teams` construct; the value was converted to an int with
 * no message. The same check covers thread_limit, device, priority, grainsize, num_tasks. */
int main(void)
{
    double sum = 0.0;
    for (int sweep = 0; sweep < 3; sweep++) {
#pragma omp teams distribute parallel for num_teams(1.5) thread_limit(4) reduction(+: sum)
        for (int i = 0; i < 8; i++)
            sum += i;
    }
    return sum != 84.0;
}
