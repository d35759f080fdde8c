/* expect: 7:17: error: invalid operands to binary - (have 'int *' and 'double *') */
int main(void)
{
    int index[8];
    double weight[8];
    int *last = &index[7];
    long span = last - weight;
    return (int)span;
}
