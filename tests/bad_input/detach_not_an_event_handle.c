/* expect: 5:18: error: 'flag' in 'detach' is not an 'omp_event_handle_t' */
int main(void)
{
    int flag = 0;
#pragma omp task detach(flag)
    flag = 1;
    return flag;
}
