// CCCL's Thrust and CUB (shipped with the CUDA toolkit), unmodified, on the engine: fills,
// sequences, transforms, reductions, scans (CUB's decoupled look-back: CTAs pass prefixes to each
// other through global memory), copies back to the host and a sort (CUB's radix sort: bmsk,
// onesweep look-back), then CUB's device-wide algorithms called directly, with temporary storage
// from cudaMallocAsync on a stream of the program's own; each checked against the host's answer.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)
#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { printf("FAIL line %d: %s: %s\n", __LINE__, #call, cudaGetErrorName(e_)); return 1; } } while (0)

struct saxpy {
    int a;
    __host__ __device__ int operator()(int x, int y) const { return a * x + y; }
};

int main() {
    const int n = 3000;
    std::vector<int> host(n);
    for (int i = 0; i < n; i++) host[i] = (int) ((i * 2654435761u) % 10007) - 5000;

    thrust::device_vector<int> v(host.begin(), host.end());
    thrust::host_vector<int> back = v;
    for (int i = 0; i < n; i++) EXPECT(back[i] == host[i]);

    thrust::transform(v.begin(), v.end(), v.begin(), thrust::negate<int>());
    long long s = thrust::reduce(v.begin(), v.end(), 0LL);
    EXPECT(s == -std::accumulate(host.begin(), host.end(), 0LL));

    // fill, sequence and a two-input transform (3 * i + 7), copied back with thrust::copy.
    thrust::device_vector<int> seven(n), in(n), out(n);
    thrust::fill(seven.begin(), seven.end(), 7);
    thrust::sequence(in.begin(), in.end(), 1);
    thrust::transform(in.begin(), in.end(), seven.begin(), out.begin(), saxpy{3});
    std::vector<int> got(n);
    thrust::copy(out.begin(), out.end(), got.begin());
    for (int i = 0; i < n; i++) EXPECT(got[i] == 3 * (i + 1) + 7);
    EXPECT(thrust::reduce(seven.begin(), seven.end()) == 7 * n);

    // thrust::inclusive_scan of 1..n (CUB's scan underneath).
    thrust::inclusive_scan(in.begin(), in.end(), out.begin());
    thrust::copy(out.begin(), out.end(), got.begin());
    for (int i = 0; i < n; i++) EXPECT(got[i] == (i + 1) * (i + 2) / 2);

    // thrust::sort of ints is CUB's radix sort; compare with the host's sort of the same values.
    thrust::sort(v.begin(), v.end());
    thrust::host_vector<int> sorted = v;
    std::vector<int> want(host);
    for (int &x : want) x = -x;
    std::sort(want.begin(), want.end());
    for (int i = 0; i < n; i++) EXPECT(sorted[i] == want[i]);

    // CUB directly, on a stream of our own: the size query, then the temporary storage from
    // cudaMallocAsync on that stream, an exclusive and an inclusive scan and a sum.
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    const int *src = thrust::raw_pointer_cast(in.data());
    int *dst = thrust::raw_pointer_cast(out.data());
    size_t scanBytes = 0, sumBytes = 0;
    CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scanBytes, src, dst, n, stream));
    int *total;
    CHECK(cudaMallocAsync((void **) &total, sizeof(int), stream));
    CHECK(cub::DeviceReduce::Sum(nullptr, sumBytes, src, total, n, stream));
    void *temp;
    size_t tempBytes = std::max(scanBytes, sumBytes);
    CHECK(cudaMallocAsync(&temp, tempBytes, stream));
    CHECK(cub::DeviceScan::ExclusiveSum(temp, scanBytes, src, dst, n, stream));
    CHECK(cudaMemcpyAsync(got.data(), dst, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    for (int i = 0; i < n; i++) EXPECT(got[i] == i * (i + 1) / 2);
    CHECK(cub::DeviceScan::InclusiveSum(temp, scanBytes, src, dst, n, stream));
    CHECK(cub::DeviceReduce::Sum(temp, sumBytes, src, total, n, stream));
    int sum = 0;
    CHECK(cudaMemcpyAsync(&sum, total, sizeof(int), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaMemcpyAsync(got.data(), dst, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaFreeAsync(temp, stream));
    CHECK(cudaFreeAsync(total, stream));
    CHECK(cudaStreamSynchronize(stream));
    EXPECT(sum == n * (n + 1) / 2);
    for (int i = 0; i < n; i++) EXPECT(got[i] == (i + 1) * (i + 2) / 2);
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaGetLastError());
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    printf("PASS thrust_cub\n");
    return 0;
}
