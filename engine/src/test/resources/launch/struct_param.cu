// A kernel taking one struct by value (as CuTe/CUTLASS kernels take their Params): two pointers,
// a count and a scale; for the launch-file "struct" argument.
struct Params {
    const int *in;
    int *out;
    int n;
    float scale;
};

__global__ void scale_copy(Params p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n) p.out[i] = (int) (p.in[i] * p.scale);
}
