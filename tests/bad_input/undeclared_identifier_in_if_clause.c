/* expect: 5:29: error: use of undeclared identifier 'use_gpu' */
int main(void) {
    int a = 0;
    int n = 100;
    #pragma omp parallel if(use_gpu && n > 10)
    a = 1;
    return a;
}
