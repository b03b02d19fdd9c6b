// Kernels a program loads at run time (library_loading.cu): built by the test with
// nvcc -fatbin and nvcc --ptx, never linked into the program.
extern "C" __global__ void scale(float *x, float f) { x[threadIdx.x] *= f; }

__device__ int counter;

extern "C" __global__ void bump(int by) { atomicAdd(&counter, by); }
