/* expect: 3:9: error: array type has incomplete element type 'int[]' */
int main(void) {
    int grid[2][];
    return 0;
}
