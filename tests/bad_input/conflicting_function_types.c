/* expect: 4:8: error: conflicting types for 'area' */
int area(int w, int h);

double area(int w, int h) {
    return w * h;
}

int main(void) {
    return 0;
}
