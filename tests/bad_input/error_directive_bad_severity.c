/* expect: 4:42: error: expected 'fatal' or 'warning' in 'severity' clause */
int main(void)
{
#pragma omp error at(execution) severity(deadly) message("stop")
    return 0;
}
