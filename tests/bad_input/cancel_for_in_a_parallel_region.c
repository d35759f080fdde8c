/* expect: 10:9: error: 'cancel for' construct not closely nested inside of 'for' (it is inside 'parallel') */
/* `cancel for` outside any worksharing loop (OpenMP 4.5 2.14.1; gcc: "'cancel for'
 * construct not closely nested inside of 'for'"). */
int main(void)
{
    int hits = 0;
#pragma omp parallel
    {
        hits++;
#pragma omp cancel for
    }
    return hits == 0;
}
