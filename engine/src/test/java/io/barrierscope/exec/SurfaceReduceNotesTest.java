package io.barrierscope.exec;

import static io.barrierscope.exec.IsaNoteChecks.*;

import org.junit.jupiter.api.Test;

/**
 * The PTX ISA note of sured (9.7.11.3): ".u64/.s64/.b64 types with .min/.max operations
 * introduced in PTX ISA version 8.1" (docs/semantics.md section 15). The other forms carry no
 * note the engine checks (the instruction itself came in 2.0).
 */
class SurfaceReduceNotesTest {
    private static final String WHAT = ".u64/.s64/.b64 types with .min/.max";

    @Test
    void sixtyFourBitMinAndMaxNeedPtx81() {
        needsVersion("sured.b.min.1d.u64.trap [%rd1, {%r1}], %rd2;", "8.0", WHAT, "8.1", "9.7.11.3");
        needsVersion("sured.b.max.2d.s64.clamp [%rd1, {%r1, %r2}], %rd2;", "8.0", WHAT, "8.1", "9.7.11.3");
        needsVersion("sured.p.min.1d.b64.zero [%rd1, {%r1}], %rd2;", "8.0", WHAT, "8.1", "9.7.11.3");
    }

    @Test
    void thirtyTwoBitMinMaxAnd64BitAddLoadBefore81() {
        loadsInVersion("sured.b.max.1d.u32.trap [%rd1, {%r1}], %r2;", "8.0");
        loadsInVersion("sured.p.min.1d.b32.trap [%rd1, {%r1}], %r2;", "8.0");
        loadsInVersion("sured.b.add.1d.u64.trap [%rd1, {%r1}], %rd2;", "8.0");
    }
}
