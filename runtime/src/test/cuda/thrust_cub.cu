// CCCL's Thrust and CUB (shipped with the CUDA toolkit), unmodified, on the engine: a scan
// (CUB's decoupled look-back: CTAs pass prefixes to each other through global memory),
// reductions, a transform, copies and a sort (CUB's radix sort: bmsk, onesweep look-back), each
// checked against the host's own answer.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

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

    // thrust::sort of ints is CUB's radix sort; compare with the host's sort of the same values.
    thrust::sort(v.begin(), v.end());
    thrust::host_vector<int> sorted = v;
    std::vector<int> want(host);
    for (int &x : want) x = -x;
    std::sort(want.begin(), want.end());
    for (int i = 0; i < n; i++) EXPECT(sorted[i] == want[i]);

    // CUB directly: an inclusive scan of 1..n and a sum, with the two-phase temporary storage.
    thrust::device_vector<int> in(n), out(n);
    thrust::sequence(in.begin(), in.end(), 1);
    size_t temp = 0;
    cub::DeviceScan::InclusiveSum(nullptr, temp, thrust::raw_pointer_cast(in.data()), thrust::raw_pointer_cast(out.data()), n);
    thrust::device_vector<char> storage(temp);
    cub::DeviceScan::InclusiveSum(thrust::raw_pointer_cast(storage.data()), temp, thrust::raw_pointer_cast(in.data()),
                                  thrust::raw_pointer_cast(out.data()), n);
    thrust::host_vector<int> scanned = out;
    for (int i = 0; i < n; i++) EXPECT(scanned[i] == (i + 1) * (i + 2) / 2);
    thrust::device_vector<int> sum(1);
    temp = 0;
    cub::DeviceReduce::Sum(nullptr, temp, thrust::raw_pointer_cast(in.data()), thrust::raw_pointer_cast(sum.data()), n);
    thrust::device_vector<char> storage2(temp);
    cub::DeviceReduce::Sum(thrust::raw_pointer_cast(storage2.data()), temp, thrust::raw_pointer_cast(in.data()),
                           thrust::raw_pointer_cast(sum.data()), n);
    EXPECT(sum[0] == n * (n + 1) / 2);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    printf("PASS thrust_cub\n");
    return 0;
}
