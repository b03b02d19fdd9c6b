package io.barrierscope.bench;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.exec.Op;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.Operand;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The speed baseline: a plain SIMT loop with lanes as {@code int[32]} rows, no PTX semantics.
 *
 * <p>It replays the warp-step trace of one real interpreter run of the same launch: step i
 * executes, on warp {@code warp[i]}, the op class of the PTX instruction at {@code pc[i]}
 * (add, mad, logic, shift, setp, mov, shared load/store, global load/store, shfl, barrier,
 * branch) for all 32 lanes through a switch over an opcode array. So it executes exactly the
 * interpreter's number of warp instructions with the same instruction mix and warp
 * interleaving, but no guards, no scheduling decisions, no barrier bookkeeping, no 64-bit
 * registers, no bounds or fault checks.
 */
public final class SimtBaseline {
    static final int ADD = 0, MAD = 1, LOGIC = 2, SHIFT = 3, SETP = 4, MOV = 5, LD_SHARED = 6, ST_SHARED = 7,
            LD_GLOBAL = 8, ST_GLOBAL = 9, SHFL = 10, BAR = 11, BRA = 12, EXIT = 13;
    static final String[] KIND_NAMES = {"add", "mad", "logic", "shift", "setp", "mov", "ld.shared", "st.shared",
            "ld.global", "st.global", "shfl", "bar", "bra", "exit"};
    /** Registers per lane in the baseline's register file (operands are hashed onto them). */
    static final int REGS = 16;
    static final int SHARED_WORDS = 1 << 12;
    static final int GLOBAL_WORDS = 1 << 14;

    /** Op class per PC, and the register numbers of the destination and two sources. */
    final byte[] kind;
    final byte[] dst;
    final byte[] srcA;
    final byte[] srcB;
    /** The trace: for each warp step, the warp and the PC. */
    final int[] tracePc;
    final int[] traceWarp;
    final int warpsPerCta;
    final int[] regs;
    final int[] shared;
    final int[] global;
    final int[] barrierArrivals;
    /** Guard-true thread instructions of the recorded run, for reference. */
    final long recordedThreadInstructions;

    private SimtBaseline(LaunchedRun run, int[] tracePc, int[] traceWarp) {
        Op[] code = run.program().code;
        kind = new byte[code.length];
        dst = new byte[code.length];
        srcA = new byte[code.length];
        srcB = new byte[code.length];
        for (int pc = 0; pc < code.length; pc++) {
            Instruction in = code[pc].insn;
            kind[pc] = (byte) classify(in);
            List<Operand> ops = in.operands();
            dst[pc] = reg(ops, 0);
            srcA[pc] = reg(ops, 1);
            srcB[pc] = reg(ops, 2);
        }
        this.tracePc = tracePc;
        this.traceWarp = traceWarp;
        int warps = run.machine().warps;
        warpsPerCta = run.machine().warpsPerCta;
        regs = new int[warps * REGS * 32];
        for (int i = 0; i < regs.length; i++) regs[i] = i * 0x9E3779B1;
        shared = new int[run.machine().ctas * SHARED_WORDS];
        global = new int[GLOBAL_WORDS];
        barrierArrivals = new int[run.machine().ctas];
        recordedThreadInstructions = run.machine().threadInstructions;
    }

    /** Runs the launch once under the interpreter, recording its warp steps, and builds the baseline from them. */
    public static SimtBaseline record(Path launch) {
        LaunchedRun run = LaunchValidation.validate(launch).start();
        int[][] trace = {new int[1 << 16], new int[1 << 16]};
        int[] n = {0};
        run.interpreter().addListener(new ExecutionListener() {
            @Override
            public void warpStep(long step, int warp, int pc, int group, int active) {
                if (n[0] == trace[0].length) {
                    trace[0] = Arrays.copyOf(trace[0], n[0] * 2);
                    trace[1] = Arrays.copyOf(trace[1], n[0] * 2);
                }
                trace[0][n[0]] = pc;
                trace[1][n[0]++] = warp;
            }
        });
        run.runToEnd();
        if (n[0] != run.machine().steps) throw new IllegalStateException("trace has " + n[0] + " steps, machine " + run.machine().steps);
        return new SimtBaseline(run, Arrays.copyOf(trace[0], n[0]), Arrays.copyOf(trace[1], n[0]));
    }

    public long warpInstructions() { return tracePc.length; }
    public long threadInstructions() { return 32L * tracePc.length; }

    /** The instruction mix of the trace, e.g. {@code add=1234 bar=400 ...}. */
    public String mix() {
        long[] count = new long[KIND_NAMES.length];
        for (int pc : tracePc) count[kind[pc]]++;
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < count.length; k++) {
            if (count[k] != 0) sb.append(KIND_NAMES[k]).append('=').append(count[k]).append(' ');
        }
        return sb.toString().trim();
    }

    /** Executes the whole trace once; returns a checksum so the work cannot be discarded. */
    public int run() {
        final int[] r = regs, sh = shared, gl = global;
        final byte[] kind = this.kind, dst = this.dst, srcA = this.srcA, srcB = this.srcB;
        final int[] tracePc = this.tracePc, traceWarp = this.traceWarp;
        for (int i = 0, n = tracePc.length; i < n; i++) {
            int pc = tracePc[i];
            int w = traceWarp[i];
            int base = w * (REGS * 32);
            int d = base + (dst[pc] << 5);
            int a = base + (srcA[pc] << 5);
            int b = base + (srcB[pc] << 5);
            int cta = w / warpsPerCta;
            switch (kind[pc]) {
                case ADD -> { for (int l = 0; l < 32; l++) r[d + l] = r[a + l] + r[b + l]; }
                case MAD -> { for (int l = 0; l < 32; l++) r[d + l] = r[a + l] * r[b + l] + r[d + l]; }
                case LOGIC -> { for (int l = 0; l < 32; l++) r[d + l] = r[a + l] ^ r[b + l]; }
                case SHIFT -> { for (int l = 0; l < 32; l++) r[d + l] = r[a + l] >>> (r[b + l] & 31); }
                case SETP -> { for (int l = 0; l < 32; l++) r[d + l] = r[a + l] < r[b + l] ? 1 : 0; }
                case MOV -> { for (int l = 0; l < 32; l++) r[d + l] = r[a + l]; }
                case LD_SHARED -> {
                    int sb = cta * SHARED_WORDS;
                    for (int l = 0; l < 32; l++) r[d + l] = sh[sb + (r[a + l] & (SHARED_WORDS - 1))];
                }
                case ST_SHARED -> {
                    int sb = cta * SHARED_WORDS;
                    for (int l = 0; l < 32; l++) sh[sb + (r[d + l] & (SHARED_WORDS - 1))] = r[a + l];
                }
                case LD_GLOBAL -> { for (int l = 0; l < 32; l++) r[d + l] = gl[r[a + l] & (GLOBAL_WORDS - 1)]; }
                case ST_GLOBAL -> { for (int l = 0; l < 32; l++) gl[r[d + l] & (GLOBAL_WORDS - 1)] = r[a + l]; }
                case SHFL -> {
                    int x = r[b] & 31;
                    for (int l = 0; l < 32; l++) r[d + l] = r[a + (l ^ x)];
                }
                case BAR -> barrierArrivals[cta]++;
                default -> { } // bra, exit: the trace already holds the control flow
            }
        }
        return r[0] ^ sh[0] ^ gl[0] ^ barrierArrivals[0];
    }

    static int classify(Instruction in) {
        String op = in.opcode();
        boolean sharedSpace = in.has(".shared");
        boolean globalSpace = in.has(".global") || in.modifiers().stream().noneMatch(m -> m.equals(".param")
                || m.equals(".local") || m.equals(".const"));
        return switch (op) {
            case "add", "sub", "min", "max", "abs", "neg" -> ADD;
            case "mad", "mul", "mul24", "mad24", "div", "rem" -> MAD;
            case "and", "or", "xor", "not", "lop3", "selp", "cnot" -> LOGIC;
            case "shl", "shr", "shf", "bfe", "bfi", "brev", "popc", "clz" -> SHIFT;
            case "setp", "set" -> SETP;
            case "ld", "ldu" -> sharedSpace ? LD_SHARED : globalSpace ? LD_GLOBAL : MOV;
            case "st" -> sharedSpace ? ST_SHARED : globalSpace ? ST_GLOBAL : MOV;
            case "shfl" -> SHFL;
            case "bar", "barrier" -> BAR; // bar.warp.sync included: both are synchronization steps
            case "bra", "brx" -> BRA;
            case "ret", "exit", "trap" -> EXIT;
            default -> MOV; // mov, cvt, cvta and anything else: a register copy
        };
    }

    private static byte reg(List<Operand> ops, int i) {
        if (i >= ops.size()) return 0;
        return (byte) Math.floorMod(ops.get(i).toString().hashCode(), REGS);
    }
}
