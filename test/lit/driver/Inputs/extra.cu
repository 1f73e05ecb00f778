// A plain CUDA source given to intentc next to an Intent program: compiled
// by nvcc as is and linked in. main() is the other source's.
__global__ void extraKernel(int *Out) { *Out = 42; }

int extraValue() { return 42; }
