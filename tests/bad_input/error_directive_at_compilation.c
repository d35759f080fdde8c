/* expect: 5:9: error: 'pragma omp error' encountered: this build needs FFTW */
int main(void)
{
#if !defined(HAVE_FFTW)
#pragma omp error message("this build needs " "FFTW")
#endif
    return 0;
}
