// CUDA IPC through the driver API a program reaches with cudaGetDriverEntryPointByVersion:
// cuIpcGetMemHandle, cuIpcOpenMemHandle, cuIpcCloseMemHandle, cuIpcGetEventHandle,
// cuIpcOpenEventHandle (docs/runtime.md, "CUDA IPC").
// Fork first; the parent allocates, fills through a kernel and sends a driver-made memory handle
// and a runtime-made one; the child opens each with the other API's call, rewrites both through
// its kernel and closes each with the other API's call again, and the
// parent finds the child's values, computed here on the host. Misuse gets the driver's errors,
// and a failing driver call leaves the runtime's last error as it was.
#include <cstdio>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda.h>
#include <cuda_runtime.h>

static int fails = 0;
static const char *who = "parent";
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s line %d: %s: %s\n", who, __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)
#define DRV(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { \
    printf("FAIL %s line %d: %s gave %d\n", who, __LINE__, #x, (int) r_); return 1; } } while (0)
#define EXPECT_DRV(call, want) do { CUresult r_ = (call); if (r_ != (want)) { \
    printf("FAIL %s line %d: %s gave %d\n", who, __LINE__, #call, (int) r_); fails++; } } while (0)

static const int N = 128;

__global__ void fill(int *p, int n, int k) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = k + i; }
__global__ void triple(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= 3; }

typedef CUresult (*GetMem)(CUipcMemHandle *, CUdeviceptr);
typedef CUresult (*OpenMem)(CUdeviceptr *, CUipcMemHandle, unsigned);
typedef CUresult (*CloseMem)(CUdeviceptr);
typedef CUresult (*GetEvent)(CUipcEventHandle *, CUevent);
typedef CUresult (*OpenEvent)(CUevent *, CUipcEventHandle);
static GetMem get_mem;
static OpenMem open_mem;
static CloseMem close_mem;
static GetEvent get_event;
static OpenEvent open_event;

static int find(const char *name, void **fn) {
    cudaDriverEntryPointQueryResult q;
    CHECK(cudaGetDriverEntryPointByVersion(name, fn, 13000, cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess || *fn == nullptr) { printf("FAIL %s not found\n", name); return 1; }
    return 0;
}

struct Handles { CUipcMemHandle driver_made; cudaIpcMemHandle_t runtime_made; CUipcEventHandle event; };

static bool read_all(int fd, void *p, size_t n) {
    char *c = (char *) p;
    while (n > 0) { ssize_t r = read(fd, c, n); if (r <= 0) return false; c += r; n -= (size_t) r; }
    return true;
}

static int child(int from_parent, int to_parent) {
    who = "child";
    Handles h;
    if (!read_all(from_parent, &h, sizeof h)) { printf("FAIL child: no handles\n"); return 1; }
    // Each handle opened with the other API's call, and closed with the other again.
    int *a = nullptr;
    cudaIpcMemHandle_t ra;
    memcpy(&ra, &h.driver_made, sizeof ra);
    CHECK(cudaIpcOpenMemHandle((void **) &a, ra, cudaIpcMemLazyEnablePeerAccess));
    CUdeviceptr b = 0;
    CUipcMemHandle db;
    memcpy(&db, &h.runtime_made, sizeof db);
    EXPECT_DRV(open_mem(&b, db, 0), CUDA_ERROR_INVALID_VALUE); // must be the lazy peer access flag
    DRV(open_mem(&b, db, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    CUevent ev;
    DRV(open_event(&ev, h.event));
    int seen[N];
    CHECK(cudaMemcpy(seen, a, sizeof seen, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) if (seen[i] != 10 + i) { printf("FAIL child: seen[%d] = %d\n", i, seen[i]); return 1; }
    triple<<<1, N>>>(a, N);
    triple<<<1, N>>>((int *) b, N);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord((cudaEvent_t) ev, 0));
    DRV(close_mem((CUdeviceptr) a));
    CHECK(cudaIpcCloseMemHandle((void *) b));
    EXPECT_DRV(close_mem((CUdeviceptr) a), CUDA_ERROR_INVALID_VALUE); // closed as often as opened
    CHECK(cudaEventDestroy((cudaEvent_t) ev));
    char done = 'd';
    if (write(to_parent, &done, 1) != 1) { printf("FAIL child: pipe\n"); return 1; }
    return fails ? 1 : 0;
}

int main() {
    if (find("cuIpcGetMemHandle", (void **) &get_mem) || find("cuIpcOpenMemHandle", (void **) &open_mem)
        || find("cuIpcCloseMemHandle", (void **) &close_mem) || find("cuIpcGetEventHandle", (void **) &get_event)
        || find("cuIpcOpenEventHandle", (void **) &open_event)) return 1;
    int down[2], up[2];
    if (pipe(down) != 0 || pipe(up) != 0) { printf("FAIL pipe\n"); return 1; }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) { printf("FAIL fork\n"); return 1; }
    if (pid == 0) {
        int r = child(down[0], up[1]);
        fflush(stdout);
        _exit(r);
    }
    int *a, *b;
    CHECK(cudaMalloc(&a, N * sizeof(int)));
    CHECK(cudaMalloc(&b, N * sizeof(int)));
    fill<<<1, N>>>(a, N, 10);
    fill<<<1, N>>>(b, N, 500);
    CHECK(cudaDeviceSynchronize());
    cudaEvent_t ev;
    CHECK(cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming));
    Handles h;
    DRV(get_mem(&h.driver_made, (CUdeviceptr) a));
    CHECK(cudaIpcGetMemHandle(&h.runtime_made, b));
    DRV(get_event(&h.event, (CUevent) ev));
    // Misuse: the driver's codes, and the runtime's last error untouched by them.
    int host = 0;
    CUipcMemHandle bad;
    CUdeviceptr mine;
    EXPECT_DRV(get_mem(&bad, (CUdeviceptr) &host), CUDA_ERROR_INVALID_VALUE);
    EXPECT_DRV(open_mem(&mine, h.driver_made, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT_DRV(close_mem((CUdeviceptr) a), CUDA_ERROR_INVALID_VALUE); // never opened here
    if (cudaGetLastError() != cudaSuccess) { printf("FAIL a driver call set the runtime's last error\n"); fails++; }

    if (write(down[1], &h, sizeof h) != (ssize_t) sizeof h) { printf("FAIL pipe\n"); return 1; }
    char done = 0;
    if (!read_all(up[0], &done, 1) || done != 'd') { printf("FAIL the child did not finish its part\n"); fails++; }
    CHECK(cudaEventSynchronize(ev));
    int back_a[N], back_b[N];
    CHECK(cudaMemcpy(back_a, a, sizeof back_a, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(back_b, b, sizeof back_b, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        if (back_a[i] != 3 * (10 + i) || back_b[i] != 3 * (500 + i)) {
            printf("FAIL element %d: %d and %d (the child's writes)\n", i, back_a[i], back_b[i]); fails++; break;
        }
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        printf("FAIL the child ended with status %d\n", status); fails++;
    }
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaEventDestroy(ev));
    printf(fails ? "FAIL ipc_driver\n" : "PASS ipc_driver\n");
    return fails ? 1 : 0;
}
