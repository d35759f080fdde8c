#include <stdio.h>
#include "particles.h"

int main(void)
{
    store_init();
    printf("gravity: position sum %.6f\n", gravity_module(4));
    printf("drag: velocity sum %.6f\n", drag_module(3));
    printf("particle 7: x %.6f v %.6f\n", position[7], velocity[7]);
    printf("particle 199: x %.6f v %.6f\n", position[199], velocity[199]);
    return 0;
}
