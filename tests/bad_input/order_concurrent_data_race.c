/* expect: 9:9: error: data race: every iteration of the region with 'order(concurrent)' writes 'scratch' */
int main(void)
{
    int in[64], out[64], scratch = 0;
    for (int i = 0; i < 64; i++)
        in[i] = i;
#pragma omp parallel for order(concurrent)
    for (int i = 0; i < 64; i++) {
        scratch = in[i] * 3;
        out[i] = scratch + 1;
    }
    return out[5];
}
