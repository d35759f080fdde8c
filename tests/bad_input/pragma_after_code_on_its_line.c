/* expect: 7:4: error: stray '#' in program */
/* A `#pragma` after code on the same line is no directive: its '#' is a stray character
   (a fuzz finding: it was taken as the pragma). The column is that of the preprocessed line. */
int main(void)
{
    int b = 0;
 ;   #pragma omp target map(tofrom: b)
    b++;
    return b;
}
