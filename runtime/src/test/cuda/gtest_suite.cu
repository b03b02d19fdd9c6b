// A googletest suite built the way library test suites are (nvcc -cudart shared, linked with
// gtest_main), to show a real test harness runs unmodified under barrierscope exec: fixtures,
// assertions on device results, a filter on the command line, and a death test (gtest forks
// the process; the child gets its own connection).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

__global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void block_sum(const int *in, int *out) {
    __shared__ int s[128];
    s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
    __syncthreads();
    for (int w = 64; w > 0; w /= 2) {
        if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

class DeviceBuffers : public ::testing::Test {
protected:
    std::vector<void *> owned;
    template <typename T> T *alloc(size_t n) {
        void *p = nullptr;
        EXPECT_EQ(cudaSuccess, cudaMalloc(&p, n * sizeof(T)));
        owned.push_back(p);
        return static_cast<T *>(p);
    }
    void TearDown() override {
        for (void *p : owned) EXPECT_EQ(cudaSuccess, cudaFree(p));
    }
};

TEST_F(DeviceBuffers, Saxpy) {
    const int n = 100;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; i++) { x[i] = i; y[i] = 1; }
    float *dx = alloc<float>(n), *dy = alloc<float>(n);
    ASSERT_EQ(cudaSuccess, cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    ASSERT_EQ(cudaSuccess, cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    saxpy<<<2, 64>>>(2.0f, dx, dy, n);
    ASSERT_EQ(cudaSuccess, cudaGetLastError());
    ASSERT_EQ(cudaSuccess, cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT_FLOAT_EQ(2.0f * i + 1, y[i]) << "at " << i;
}

TEST_F(DeviceBuffers, BlockSum) {
    const int blocks = 3;
    std::vector<int> in(blocks * 128), out(blocks);
    for (size_t i = 0; i < in.size(); i++) in[i] = (int) i;
    int *din = alloc<int>(in.size()), *dout = alloc<int>(blocks);
    ASSERT_EQ(cudaSuccess, cudaMemcpy(din, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice));
    block_sum<<<blocks, 128>>>(din, dout);
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
    ASSERT_EQ(cudaSuccess, cudaMemcpy(out.data(), dout, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) EXPECT_EQ(128 * 128 * b + 127 * 128 / 2, out[b]);
}

TEST(Harness, FilteredOut) {
    FAIL() << "the command line's --gtest_filter leaves this test out";
}

TEST(HarnessDeathTest, ChildUsesTheDeviceToo) {
    EXPECT_EXIT({
        int *p = nullptr;
        if (cudaMalloc(&p, 64) != cudaSuccess) std::exit(3);
        if (cudaMemset(p, 0, 64) != cudaSuccess) std::exit(4);
        std::exit(7);
    }, ::testing::ExitedWithCode(7), "");
}
