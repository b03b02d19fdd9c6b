// Library-based loading (CUDA 12+): a fat binary loaded from a file and PTX text loaded from
// memory, kernels found by name and launched by handle (runtime and driver calls), a library
// variable read back, a cubin refused, and an unloaded library's kernel no longer launching.
// Usage: library_loading KERNELS.fatbin KERNELS.ptx
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <cuda.h>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("FAIL line %d %s: %s\n", __LINE__, #x, cudaGetErrorString(e)); return 1; } } while (0)
#define CU(x) do { CUresult e = (x); if (e != CUDA_SUCCESS) { printf("FAIL line %d %s: %d\n", __LINE__, #x, (int) e); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); return 1; } } while (0)

template <class F> static F entry(const char *name) {
    void *p = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion(name, &p, 13000, cudaEnableDefault, &q) != cudaSuccess) return nullptr;
    return (F) p;
}

int main(int argc, char **argv) {
    if (argc != 3) { printf("usage: library_loading KERNELS.fatbin KERNELS.ptx\n"); return 2; }
    cudaLibrary_t lib;
    CHECK(cudaLibraryLoadFromFile(&lib, argv[1], nullptr, nullptr, 0, nullptr, nullptr, 0));
    unsigned count = 0;
    CHECK(cudaLibraryGetKernelCount(&count, lib));
    EXPECT(count == 2);
    cudaKernel_t all[2], scale, bump;
    CHECK(cudaLibraryEnumerateKernels(all, 2, lib));
    CHECK(cudaLibraryGetKernel(&scale, lib, "scale"));
    CHECK(cudaLibraryGetKernel(&bump, lib, "bump"));
    EXPECT((all[0] == scale && all[1] == bump) || (all[0] == bump && all[1] == scale));
    EXPECT(cudaLibraryGetKernel(&scale, lib, "nope") == cudaErrorSymbolNotFound);
    cudaGetLastError();
    CHECK(cudaLibraryGetKernel(&scale, lib, "scale"));
    const char *name = nullptr;
    CHECK(cudaFuncGetName(&name, (void *) scale));
    EXPECT(strcmp(name, "scale") == 0);

    float *x;
    CHECK(cudaMalloc(&x, 32 * sizeof(float)));
    float h[32];
    for (int i = 0; i < 32; i++) h[i] = (float) i;
    CHECK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));
    float f = 3.0f;
    void *args[] = {&x, &f};
    CHECK(cudaLaunchKernel((void *) scale, dim3(1), dim3(32), args, 0, 0));
    // Again through cudaLaunchKernelExC, a kernel handle as the function.
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(1);
    config.blockDim = dim3(32);
    CHECK(cudaLaunchKernelExC(&config, (void *) scale, args));
    CHECK(cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) EXPECT(h[i] == 9.0f * i);

    int *counter = nullptr;
    size_t bytes = 0;
    CHECK(cudaLibraryGetGlobal((void **) &counter, &bytes, lib, "counter"));
    EXPECT(counter != nullptr && bytes == sizeof(int));
    // "One of the parameters dptr or bytes (not both) can be NULL".
    EXPECT(cudaLibraryGetGlobal(nullptr, nullptr, lib, "counter") == cudaErrorInvalidValue);
    cudaGetLastError();
    int by = 5;
    void *bargs[] = {&by};
    CHECK(cudaLaunchKernel((void *) bump, dim3(2), dim3(32), bargs, 0, 0));
    int c = 0;
    CHECK(cudaMemcpy(&c, counter, sizeof c, cudaMemcpyDeviceToHost));
    EXPECT(c == 2 * 32 * 5);

    // The driver's calls, found through cuGetProcAddress: PTX text loaded from memory.
    std::ifstream in(argv[2]);
    std::stringstream text;
    text << in.rdbuf();
    std::string ptx = text.str();
    auto getProc = entry<CUresult (*)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *)>("cuGetProcAddress");
    EXPECT(getProc != nullptr);
    void *p;
    CUdriverProcAddressQueryResult q;
    CU(getProc("cuLibraryLoadData", &p, 13000, 0, &q));
    auto libLoad = (CUresult (*)(CUlibrary *, const void *, CUjit_option *, void **, unsigned, CUlibraryOption *, void **, unsigned)) p;
    CU(getProc("cuLibraryGetKernel", &p, 13000, 0, &q));
    auto libKernel = (CUresult (*)(CUkernel *, CUlibrary, const char *)) p;
    CU(getProc("cuKernelGetFunction", &p, 13000, 0, &q));
    auto kernelFunction = (CUresult (*)(CUfunction *, CUkernel)) p;
    CU(getProc("cuLaunchKernel", &p, 13000, 0, &q));
    auto launch = (CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void **, void **)) p;
    CU(getProc("cuModuleLoadData", &p, 13000, 0, &q));
    auto modLoad = (CUresult (*)(CUmodule *, const void *)) p;
    CU(getProc("cuModuleGetFunction", &p, 13000, 0, &q));
    auto modFunction = (CUresult (*)(CUfunction *, CUmodule, const char *)) p;
    CUlibrary dlib;
    CU(libLoad(&dlib, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    CUkernel dk;
    CU(libKernel(&dk, dlib, "scale"));
    CUfunction df;
    CU(kernelFunction(&df, dk));
    f = 0.5f;
    CU(launch(df, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
    CUmodule mod;
    CU(modLoad(&mod, ptx.c_str()));
    CUfunction mf;
    CU(modFunction(&mf, mod, "scale"));
    f = 2.0f;
    CU(launch(mf, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
    CHECK(cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) EXPECT(h[i] == 9.0f * i);
    // A driver call's error is not the runtime's last error (the driver API keeps none).
    CHECK(cudaGetLastError());
    EXPECT(modFunction(&mf, mod, "nope") == CUDA_ERROR_NOT_FOUND);
    EXPECT(cudaPeekAtLastError() == cudaSuccess);
    // A CUkernel must be one: a host pointer is no kernel handle.
    EXPECT(kernelFunction(&df, (CUkernel) h) == CUDA_ERROR_INVALID_HANDLE);

    // An executable graph made with a kernel of the library, before it is unloaded (below).
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaGraphCreate(&graph, 0));
    cudaKernelNodeParams kp = {};
    kp.func = (void *) scale;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(32);
    kp.kernelParams = args;
    cudaGraphNode_t kn;
    CHECK(cudaGraphAddKernelNode(&kn, graph, nullptr, 0, &kp));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));

    // A cubin has no PTX for the engine: refused by name.
    const char cubin[64] = "\x7f" "ELF\x02\x01\x01";
    cudaLibrary_t bad;
    EXPECT(cudaLibraryLoadData(&bad, cubin, nullptr, nullptr, 0, nullptr, nullptr, 0) == cudaErrorInvalidKernelImage);
    cudaGetLastError();

    // Unloaded: its kernels launch no more, its handle is refused.
    CHECK(cudaLibraryUnload(lib));
    EXPECT(cudaLaunchKernel((void *) scale, dim3(1), dim3(32), args, 0, 0) != cudaSuccess);
    cudaGetLastError();
    EXPECT(cudaLibraryGetKernelCount(&count, lib) == cudaErrorInvalidResourceHandle);
    cudaGetLastError();
    // Nor does the graph's node: the launch fails by name, not as a request the engine cannot read.
    EXPECT(cudaGraphLaunch(exec, 0) == cudaErrorNoKernelImageForDevice);
    cudaGetLastError();
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaFree(x));
    printf("PASS library_loading\n");
    return 0;
}
