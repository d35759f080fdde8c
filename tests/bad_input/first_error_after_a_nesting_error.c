/* expect: 17:22: error: use of undeclared identifier 'q' */
/* gcc finds misnested regions only once the whole file is read: the later error comes first */
int f(void)
{
    int s = 0;
#pragma omp parallel
    {
#pragma omp single
        {
#pragma omp for
            for (int i = 0; i < 4; i++) s += i;
        }
    }
    return s;
}

int g(void) { return q; }

int main(void) { return f() + g(); }
