/* expect: 4:5: error: jump into scope of identifier with variably modified type */
int main(void) {
    int n = 1;
    goto inside;
    {
        int v[n];
    inside:
        return v[0];
    }
}
