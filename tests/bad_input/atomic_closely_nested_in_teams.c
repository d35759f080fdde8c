/* expect: 6:17: error: 'atomic' region may not be closely nested inside a 'teams' region */
int main(void) {
    int hits = 0;
    #pragma omp target teams num_teams(4) map(tofrom: hits)
    {
        #pragma omp atomic
        hits += 1;
    }
    return hits > 0 ? 0 : 1;
}
