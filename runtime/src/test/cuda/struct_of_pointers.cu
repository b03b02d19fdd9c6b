// A struct of device pointers passed by value, and device pointers stored in a device buffer
// (a table of rows): one device address space across launches.
#include <cstdio>
#include <cuda_runtime.h>

struct Args {
    const int *const *rows;  // device buffer of device pointers
    int *out;
    int width;
    int nrows;
    double bias;             // an 8-byte field after two ints: the struct's own layout
};

__global__ void sum_rows(Args args) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= args.nrows) return;
    int s = 0;
    for (int i = 0; i < args.width; i++) s += args.rows[r][i];
    args.out[r] = s + (int) args.bias;
    if (r == 0) printf("device: row 0 sums to %d\n", s);
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
    const int nrows = 5, width = 7;
    int *rows[nrows];
    for (int r = 0; r < nrows; r++) {
        int h[width];
        for (int i = 0; i < width; i++) h[i] = r * 100 + i;
        CHECK(cudaMalloc(&rows[r], sizeof h));
        CHECK(cudaMemcpy(rows[r], h, sizeof h, cudaMemcpyHostToDevice));
    }
    int **drows;
    CHECK(cudaMalloc(&drows, sizeof rows));
    CHECK(cudaMemcpy(drows, rows, sizeof rows, cudaMemcpyHostToDevice));
    Args args;
    args.rows = drows;
    CHECK(cudaMalloc(&args.out, nrows * sizeof(int)));
    args.width = width;
    args.nrows = nrows;
    args.bias = 3.0;
    sum_rows<<<1, 32>>>(args);
    CHECK(cudaDeviceSynchronize());
    int hout[nrows];
    CHECK(cudaMemcpy(hout, args.out, sizeof hout, cudaMemcpyDeviceToHost));
    for (int r = 0; r < nrows; r++) {
        int want = r * 100 * width + width * (width - 1) / 2 + 3;
        if (hout[r] != want) { printf("FAIL out[%d] = %d, want %d\n", r, hout[r], want); return 1; }
    }
    printf("PASS struct_of_pointers\n");
    return 0;
}
