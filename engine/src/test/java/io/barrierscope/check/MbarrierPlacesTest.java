package io.barrierscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.ptx.PtxParser;
import org.junit.jupiter.api.Test;

/**
 * The mbarrier objects a CTA can hold are the places its kernel's inits can name, read from the PTX
 * (check/MbarrierPlaces; docs/reliability.md, "Clocks joined from other CTAs"): a register's every
 * definition and its initial 0 are values it may hold, so each init through a register names the
 * places of its definitions and the same offsets from 0.
 */
class MbarrierPlacesTest {
    private static long places(String decls, String body) {
        String ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
                + ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n" + decls + "\n" + body + "\nret;\n}\n";
        return MbarrierPlaces.count(PtxParser.parse("k.ptx", ptx));
    }

    @Test
    void initsAtFixedOffsetsOfAVariableCountTheirPlacesNotTheThreadsOrTheSharedMemory() {
        // Every thread runs the three inits (nvcc's shape: a symbol moved, then offset by 8 and 16);
        // places: bars+0, +8, +16, and 0, 8, 16 from the registers' initial 0.
        String decls = ".shared .align 8 .b8 bars[24];\n.extern .shared .align 1024 .b8 ring[];";
        String body = "mov.u32 %r1, bars;\nmbarrier.init.shared::cta.b64 [%r1], 1;\nadd.s32 %r2, %r1, 8;\n"
                + "mbarrier.init.shared::cta.b64 [%r2], 1;\nmbarrier.init.shared::cta.b64 [%r1+16], 1;";
        assertEquals(6, places(decls, body));
        assertEquals(6, MbarrierPlaces.perCta(places(decls, body), 72 << 10), "not one per 8 bytes of 72 KiB");
        assertEquals(2, MbarrierPlaces.perCta(places(decls, body), 16), "never more than the shared memory holds");
    }

    @Test
    void aGenericAddressConvertedFromASharedOneIsTheSamePlace() {
        String body = "mov.u64 %rd1, bars;\ncvta.shared.u64 %rd2, %rd1;\nmbarrier.init.b64 [%rd2], 1;\n"
                + "cvt.u32.u64 %r1, %rd1;\nmbarrier.init.shared.b64 [%r1], 1;";
        assertEquals(2, places(".shared .align 8 .b64 bars;", body), "bars and 0");
    }

    @Test
    void aChoiceBetweenTwoAddressesNamesBoth() {
        String body = "mov.u32 %r9, %tid.x;\nsetp.eq.u32 %p1, %r9, 0;\nmov.u32 %r1, full;\nmov.u32 %r2, empty;\n"
                + "selp.b32 %r3, %r1, %r2, %p1;\nmbarrier.init.shared.b64 [%r3], 1;";
        assertEquals(3, places(".shared .align 8 .b64 full;\n.shared .align 8 .b64 empty;", body), "full, empty and 0");
    }

    @Test
    void anAddressIndexedByTheThreadLoadedOrSteppedInALoopIsUnknown() {
        String decls = ".shared .align 8 .b8 bars[2048];";
        assertEquals(-1, places(decls, "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 3;\nmov.u32 %r3, bars;\nadd.s32 %r4, %r3, %r2;\n"
                + "mbarrier.init.shared.b64 [%r4], 1;"));
        assertEquals(-1, places(decls, "ld.param.u64 %rd1, [p];\nld.global.u32 %r1, [%rd1];\nmbarrier.init.shared.b64 [%r1], 1;"));
        assertEquals(-1, places(decls, "mov.u32 %r1, bars;\nL:\nmbarrier.init.shared.b64 [%r1], 1;\nadd.s32 %r1, %r1, 8;\n"
                + "setp.lt.u32 %p1, %r1, 2048;\n@%p1 bra L;"));
        assertEquals(256 / 8, MbarrierPlaces.perCta(-1, 256), "unknown: one per 8 bytes of shared memory");
    }

    @Test
    void aKernelWithoutInitsHasNoPlaces() {
        assertEquals(0, places("", "bar.sync 0;"));
    }
}
