/* expect: 3:5: error: declaration for parameter 'count' but no such parameter */
int sum(values, n) const int *values; int n;
int count;
{
  int s = 0;
  while (n-- > 0) s += *values++;
  return s;
}
int main(void) { int v[2] = {1, 2}; return sum(v, 2) - 3; }
