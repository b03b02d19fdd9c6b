package io.barrierscope.runtime;

import io.barrierscope.exec.DeviceHeap;
import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.MemoryFault;
import io.barrierscope.exec.Program;
import io.barrierscope.ptx.PtxException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything one program's CUDA runtime owns, on the engine's side: one device address space
 * for the whole program (allocations and module variables persist across launches, so pointers
 * stored in structs and buffers keep working), the registered modules, and the launches. Every
 * request of the wire (RuntimeProtocol) is one method here; a bad request gets a CUDA error and
 * a message naming what was wrong, and changes nothing.
 */
public final class DeviceSession {
    /** The result of one request: a cudaError_t and the reply payload. */
    public record Reply(int status, byte[] payload) {
        static Reply ok(byte[] p) { return new Reply(CudaError.SUCCESS, p); }
        static Reply ok() { return ok(new byte[0]); }
        static Reply error(int status) { return new Reply(status, new byte[0]); }
    }

    /** At most this many bytes of device memory in all (the engine holds them in the heap). */
    public static final long DEVICE_BUDGET = 1L << 30;

    private final GlobalMemory device = new GlobalMemory();
    private final HostMirrors mirrors = new HostMirrors(device);
    private final List<DeviceModule> modules = new ArrayList<>();
    private final LaunchOptions options;
    private final PrintWriter out;
    private final PrintWriter err;
    private long allocated;
    private int launches;
    private final List<String> failures = new ArrayList<>();
    private final List<String> unimplemented = new ArrayList<>();
    private final java.util.Set<String> uncompilable = new java.util.LinkedHashSet<>();
    private int worstExit;
    private GlobalMemory.Segment gridWorkspace;
    private java.util.function.Consumer<java.nio.file.Path> onFailure = bundle -> { };

    public DeviceSession(LaunchOptions options, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** Launches that did not complete, one line each. */
    public List<String> failures() { return failures; }
    /** APIs the program called that we do not implement. */
    public List<String> unimplemented() { return unimplemented; }
    /** Kernels whose PTX the engine cannot compile (an instruction it does not run): every launch of one is refused. */
    public java.util.Set<String> uncompilable() { return uncompilable; }
    /** The exit code of the worst failed launch (as `run` has it), or 0. */
    public int worstExit() { return worstExit; }
    public int launches() { return launches; }
    public GlobalMemory device() { return device; }
    /** What each launch moved to and from the program's mirrored memory (HostMirrors). */
    List<HostMirrors.Transfer> transfers() { return mirrors.transfers(); }
    /**
     * Runs after every failed launch, given its bundle (null: none), before the program gets the
     * error (--on-failure abort stops the program there, gui opens the window while it waits).
     */
    public void onFailure(java.util.function.Consumer<java.nio.file.Path> r) { onFailure = r; }

    public Reply handle(RuntimeProtocol.Request r) { return handle(r, 0); }

    /** One request of the connection {@code client} (each process of the program has its own). */
    public synchronized Reply handle(RuntimeProtocol.Request r, int client) {
        ByteBuffer p = r.payload();
        try {
            return switch (r.op()) {
                case RuntimeProtocol.HELLO -> p.getInt() == RuntimeProtocol.VERSION ? Reply.ok() : Reply.error(CudaError.NOT_SUPPORTED);
                case RuntimeProtocol.MODULE -> module(r.string());
                case RuntimeProtocol.MODULE_LINK -> linkedModule(r, p.getInt());
                case RuntimeProtocol.PARAMS -> params(p.getInt(), r.string());
                case RuntimeProtocol.MALLOC -> malloc(p.getLong(), p.hasRemaining() ? r.string() : "cudaMalloc");
                case RuntimeProtocol.MAP_HOST -> mapHost(p.getLong(), p.getLong(), p.getInt(), r.string());
                case RuntimeProtocol.FREE -> free(p.getLong());
                case RuntimeProtocol.WRITE -> write(p.getLong(), p);
                case RuntimeProtocol.READ -> read(p.getLong(), p.getLong());
                case RuntimeProtocol.COPY -> copy(p.getLong(), p.getLong(), p.getLong());
                case RuntimeProtocol.SET -> set(p.getLong(), (byte) p.getInt(), p.getLong());
                case RuntimeProtocol.SYMBOL -> symbol(p.getInt(), r.string());
                case RuntimeProtocol.LAUNCH -> launch(p, r, client);
                case RuntimeProtocol.MIRROR -> mirror(p.getLong(), p.getLong());
                case RuntimeProtocol.PUSH -> Reply.ok(new RuntimeProtocol.Payload().u32(mirrors.push(client, p) ? 1 : 0).toArray());
                case RuntimeProtocol.HEAP_LIMIT -> heapLimit(p.getLong());
                case RuntimeProtocol.UNIMPLEMENTED -> {
                    unimplemented.add(r.string());
                    yield Reply.ok();
                }
                default -> {
                    err.println("barrierscope: unknown request " + r.op() + " from the program's CUDA runtime (a libcudart.so.13 of another BarrierScope?)");
                    yield Reply.error(CudaError.NOT_SUPPORTED);
                }
            };
        } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
            err.println("barrierscope: a malformed request " + r.op() + " from the program's CUDA runtime: " + e.getMessage());
            return Reply.error(CudaError.INVALID_VALUE);
        }
    }

    /** The PTX of every object of a program built with -rdc=true, linked into one module (PtxLinker). */
    private Reply linkedModule(RuntimeProtocol.Request r, int n) {
        if (n < 1 || n > 1 << 16) throw new IllegalArgumentException("bad object count " + n);
        java.util.List<String> objects = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) objects.add(r.string());
        String linked;
        try {
            linked = PtxLinker.link(objects);
        } catch (PtxLinker.LinkException e) {
            err.println("barrierscope: the program's device code (relocatable, -rdc=true, " + n
                    + " objects) cannot be linked: " + e.getMessage());
            return Reply.error(CudaError.INVALID_PTX);
        }
        return module(linked);
    }

    private Reply module(String ptx) {
        DeviceModule dm;
        try {
            dm = new DeviceModule(modules.size(), ptx, device);
        } catch (PtxException | IllegalArgumentException e) {
            err.println("barrierscope: the program's PTX (module " + modules.size() + ") cannot be loaded: " + e.getMessage());
            return Reply.error(CudaError.INVALID_PTX);
        }
        modules.add(dm);
        return Reply.ok(new RuntimeProtocol.Payload().u32(dm.id).toArray());
    }

    DeviceModule moduleOf(int id) {
        if (id < 0 || id >= modules.size()) throw new IllegalArgumentException("no module " + id);
        return modules.get(id);
    }

    private Reply params(int module, String entry) {
        Program p;
        try {
            p = moduleOf(module).program(entry);
        } catch (PtxException | IllegalArgumentException e) {
            err.println("barrierscope: cannot launch " + entry + ": " + e.getMessage());
            if (e instanceof PtxException) uncompilable.add(entry);
            return Reply.error(CudaError.INVALID_DEVICE_FUNCTION);
        }
        RuntimeProtocol.Payload out = new RuntimeProtocol.Payload().u32(p.kernelParams.size());
        for (Program.KernelParam kp : p.kernelParams) out.u32(kp.size());
        // What cudaFuncGetAttributes and the occupancy queries need to know of the entry.
        out.u32(p.staticSharedBytes).u32(p.localPerThread).u32(p.constBank.length);
        var d = p.kernel.directives();
        int[] c = d.reqnctapercluster() != null ? d.reqnctapercluster() : d.clusterDim();
        out.u32(c == null ? 0 : c[0]).u32(c == null ? 0 : c[1]).u32(c == null ? 0 : c[2]);
        out.u32(KernelLaunch.maxThreads(d));
        for (Program.KernelParam kp : p.kernelParams) out.u32(kp.offset()); // cudaFuncGetParamInfo
        return Reply.ok(out.toArray());
    }

    /** An allocation for `call` (cudaMalloc, cudaMallocManaged, cudaMallocHost, cudaHostAlloc): named in a refusal. */
    private Reply malloc(long size, String call) {
        if (size < 0 || size > Integer.MAX_VALUE - 8 || allocated + size > DEVICE_BUDGET) {
            err.println("barrierscope: " + call + "(" + Long.toUnsignedString(size) + "): BarrierScope's device has " + (DEVICE_BUDGET >> 20)
                    + " MiB in all and holds one allocation in at most 2 GiB; " + allocated + " bytes are allocated");
            return Reply.error(CudaError.MEMORY_ALLOCATION);
        }
        GlobalMemory.Segment s = device.mapAt("cudaMalloc#" + device.segments().size(), device.nextAddress(), new byte[(int) size], false);
        allocated += size;
        return Reply.ok(new RuntimeProtocol.Payload().u64(s.base()).toArray());
    }

    /** Segment names of registered host ranges (cudaHostRegister): the host may write them even when kernels may not. */
    static final String HOST_REGISTERED = "cudaHostRegister#";

    /**
     * Host memory the program registered, mapped at its own host address so that kernels reach it
     * at the host pointer (unified addressing). It counts toward the budget as pinned memory does;
     * a range overlapping anything mapped (or reaching the engine's own addresses or windows) is
     * refused.
     */
    private Reply mapHost(long base, long size, int flags, String call) {
        if (size <= 0 || size > Integer.MAX_VALUE - 8 || allocated + size > DEVICE_BUDGET) {
            err.println("barrierscope: " + call + "(" + size + " bytes): BarrierScope's device has " + (DEVICE_BUDGET >> 20)
                    + " MiB in all (registered memory is held there too) and holds one range in at most 2 GiB; "
                    + allocated + " bytes are allocated");
            return Reply.error(CudaError.MEMORY_ALLOCATION);
        }
        if (!device.mapApart(HOST_REGISTERED + "0x" + Long.toHexString(base), base, new byte[(int) size],
                (flags & RuntimeProtocol.MAP_HOST_READ_ONLY) != 0)) {
            err.println("barrierscope: " + call + "(0x" + Long.toHexString(base) + ", " + size + "): the range overlaps device"
                    + " memory or lies where the engine places its own (returns cudaErrorInvalidValue)");
            return Reply.error(CudaError.INVALID_VALUE);
        }
        allocated += size;
        mirrors.add(base, size);
        return Reply.ok();
    }

    /** [base, base+size) is mirrored in the program (managed or pinned memory, a __managed__ variable). */
    private Reply mirror(long base, long size) {
        try {
            mirrors.add(base, size);
            return Reply.ok();
        } catch (MemoryFault f) {
            return badAddress(f);
        }
    }

    /**
     * The grid-barrier workspace of cooperative launches, as the driver keeps one per context:
     * mapped on first use, zeroed before each cooperative launch (a launch that failed halfway
     * may have left a count in it).
     */
    private long gridWorkspace() {
        if (gridWorkspace == null) gridWorkspace = device.mapAt("gridWorkspace", device.nextAddress(), new byte[64], false);
        java.util.Arrays.fill(gridWorkspace.data(), (byte) 0);
        return gridWorkspace.base();
    }

    /** cudaLimitMallocHeapSize: the size the device heap gets when a kernel that uses malloc or free is first launched. */
    private long heapLimit = DeviceHeap.DEFAULT_BYTES;
    private GlobalMemory.Segment heap;

    /**
     * cudaDeviceSetLimit(cudaLimitMallocHeapSize): as the CUDA Runtime API documents it, the size
     * must be set before a kernel that uses malloc or free is launched (cudaErrorInvalidValue after).
     */
    private Reply heapLimit(long bytes) {
        if (heap != null) {
            err.println("barrierscope: cudaDeviceSetLimit(cudaLimitMallocHeapSize, " + Long.toUnsignedString(bytes) + "): a kernel that uses"
                    + " malloc or free was launched already, so the device heap's size is fixed (returns cudaErrorInvalidValue)");
            return Reply.error(CudaError.INVALID_VALUE);
        }
        if (bytes < 0 || bytes > DeviceHeap.MAX_BYTES) {
            err.println("barrierscope: cudaDeviceSetLimit(cudaLimitMallocHeapSize, " + Long.toUnsignedString(bytes) + "): BarrierScope's"
                    + " device has " + (DEVICE_BUDGET >> 20) + " MiB in all (returns cudaErrorInvalidValue)");
            return Reply.error(CudaError.INVALID_VALUE);
        }
        heapLimit = bytes;
        return Reply.ok();
    }

    /**
     * The device heap, mapped when the first kernel that uses malloc or free is launched and kept
     * for the program's whole run (CUDA: the context's); null, with the reason printed, when the
     * device's budget cannot hold it.
     */
    GlobalMemory.Segment deviceHeap(String launch) {
        if (heap != null) return heap;
        byte[] bytes = DeviceHeap.fresh(heapLimit);
        if (allocated + bytes.length > DEVICE_BUDGET) {
            err.println("barrierscope: " + launch + ": the device heap of " + heapLimit + " bytes (cudaLimitMallocHeapSize) does not fit in"
                    + " BarrierScope's device of " + (DEVICE_BUDGET >> 20) + " MiB; " + allocated + " bytes are allocated");
            return null;
        }
        heap = device.mapAt(DeviceHeap.SEGMENT, device.nextAddress(), bytes, false);
        allocated += bytes.length;
        return heap;
    }

    private Reply free(long addr) {
        for (GlobalMemory.Segment s : device.segments()) {
            if (s.base() == addr && (s.name().startsWith("cudaMalloc#") || s.name().startsWith(HOST_REGISTERED))) {
                device.unmap(addr);
                mirrors.dropWithin(s.base(), s.end());
                allocated -= s.data().length;
                return Reply.ok();
            }
        }
        return Reply.error(CudaError.INVALID_VALUE);
    }

    /** The bytes at [addr, addr+size) as an array and offset: device memory or a module's constant bank. */
    private record Place(byte[] data, int offset) {}

    private Place place(long addr, long size, boolean write) {
        if (size < 0 || size > Integer.MAX_VALUE) throw new MemoryFault(io.barrierscope.diag.DiagnosticCode.MEMORY_FAULT, addr, "a copy of " + size + " bytes");
        for (DeviceModule m : modules) {
            long b = m.constHostBase();
            if (addr >= b && addr + size <= b + m.constBank.length) return new Place(m.constBank, (int) (addr - b));
        }
        // The host writes a read-only registered range before each launch: only kernels may not.
        GlobalMemory.Segment s = device.find(addr, (int) size, false);
        if (s == heap) {
            // CUDA C++ Programming Guide: memory a kernel's malloc returned cannot be used in any runtime API call.
            throw new MemoryFault(io.barrierscope.diag.DiagnosticCode.MEMORY_FAULT, addr, "0x" + Long.toHexString(addr)
                    + " is in the device heap (memory a kernel's malloc returned), which runtime API calls cannot use");
        }
        if (write && !(s.readOnly() && s.name().startsWith(HOST_REGISTERED))) s = device.find(addr, (int) size, true);
        return new Place(s.data(), (int) (addr - s.base()));
    }

    /** The program's runtime prints the message, naming the call and the pointer. */
    private Reply badAddress(MemoryFault f) {
        return new Reply(CudaError.INVALID_VALUE, new RuntimeProtocol.Payload().string(f.getMessage()).toArray());
    }

    private Reply write(long dst, ByteBuffer bytes) {
        int n = bytes.remaining();
        try {
            Place pl = place(dst, n, true);
            mirrors.touchedOutside(dst, n);
            bytes.get(pl.data, pl.offset, n);
            return Reply.ok();
        } catch (MemoryFault f) {
            return badAddress(f);
        }
    }

    private Reply read(long src, long size) {
        try {
            Place pl = place(src, size, false);
            byte[] out = new byte[(int) size];
            System.arraycopy(pl.data, pl.offset, out, 0, out.length);
            return Reply.ok(out);
        } catch (MemoryFault f) {
            return badAddress(f);
        }
    }

    private Reply copy(long dst, long src, long size) {
        try {
            Place from = place(src, size, false);
            Place to = place(dst, size, true);
            mirrors.touchedOutside(dst, size);
            System.arraycopy(from.data, from.offset, to.data, to.offset, (int) size);
            return Reply.ok();
        } catch (MemoryFault f) {
            return badAddress(f);
        }
    }

    private Reply set(long dst, byte value, long size) {
        try {
            Place pl = place(dst, size, true);
            mirrors.touchedOutside(dst, size);
            java.util.Arrays.fill(pl.data, pl.offset, pl.offset + (int) size, value);
            return Reply.ok();
        } catch (MemoryFault f) {
            return badAddress(f);
        }
    }

    private Reply symbol(int module, String name) {
        DeviceModule m = moduleOf(module);
        GlobalMemory.Segment s = m.globals.get(name);
        if (s != null) return Reply.ok(new RuntimeProtocol.Payload().u64(s.base()).u64(s.data().length).toArray());
        long[] c = m.constants.get(name);
        if (c != null) return Reply.ok(new RuntimeProtocol.Payload().u64(m.constHostBase() + c[0]).u64(c[1]).toArray());
        err.println("barrierscope: the program's PTX has no __device__ or __constant__ variable '" + name + "'");
        return Reply.error(CudaError.INVALID_SYMBOL);
    }

    private Reply launch(ByteBuffer p, RuntimeProtocol.Request r, int client) {
        DeviceModule m = moduleOf(p.getInt());
        String entry = r.string();
        int[] dims = new int[9];
        for (int i = 0; i < 9; i++) dims[i] = p.getInt();
        int dynShared = p.getInt();
        boolean cooperative = (p.getInt() & RuntimeProtocol.LAUNCH_COOPERATIVE) != 0;
        byte[] params = new byte[p.remaining()];
        p.get(params);
        launches++;
        KernelLaunch k = new KernelLaunch(this, m, entry, dims, dynShared, params, launches, options, out, err);
        if (cooperative) k.gridWorkspace(gridWorkspace());
        HostMirrors.Tracker tracker = mirrors.tracker();
        k.mirrors(tracker);
        KernelLaunch.Result res = null;
        try {
            res = k.run();
        } finally {
            if (res == null) mirrors.stale();
        }
        if (res.exitCode() != 0) {
            failures.add(res.line());
            worstExit = Math.max(worstExit, res.exitCode());
            onFailure.accept(res.bundle());
        }
        RuntimeProtocol.Payload reply = new RuntimeProtocol.Payload().u64(res.cycles()).string(res.line());
        mirrors.changes(tracker, client, launches, reply);
        return new Reply(res.status(), reply.toArray());
    }
}
