package io.barrierscope.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.ptx.ScalarType;
import org.junit.jupiter.api.Test;

/**
 * The element operation and the type tables of cp.reduce.async.bulk (PTX ISA 9.7.9.25.4.2) and
 * cp.reduce.async.bulk.tensor (9.7.9.25.5.3), against values worked out here.
 */
class BulkReductionTest {
    @Test
    void theTensorTableListsMinAndMaxOfU64AndS64ButIncOnlyForU32() {
        assertTrue(BulkReduction.tensorTypeListed(BulkReduction.MIN, ScalarType.U64));
        assertTrue(BulkReduction.tensorTypeListed(BulkReduction.MAX, ScalarType.S64));
        assertFalse(BulkReduction.tensorTypeListed(BulkReduction.ADD, ScalarType.S64));
        assertFalse(BulkReduction.tensorTypeListed(BulkReduction.INC, ScalarType.S32));
        assertFalse(BulkReduction.tensorTypeListed(BulkReduction.ADD, ScalarType.F64));
        assertTrue(BulkReduction.tensorTypeListed(BulkReduction.XOR, ScalarType.U64));
    }

    @Test
    void thePlainTableDiffersBetweenSharedClusterAndGlobal() {
        assertTrue(BulkReduction.plainTypeListed(BulkReduction.AND, ScalarType.B32, false));
        assertFalse(BulkReduction.plainTypeListed(BulkReduction.AND, ScalarType.B64, false));
        assertTrue(BulkReduction.plainTypeListed(BulkReduction.AND, ScalarType.B64, true));
        assertFalse(BulkReduction.plainTypeListed(BulkReduction.MIN, ScalarType.U64, false));
        assertTrue(BulkReduction.plainTypeListed(BulkReduction.MIN, ScalarType.U64, true));
        assertTrue(BulkReduction.plainTypeListed(BulkReduction.ADD, ScalarType.F64, true));
        assertFalse(BulkReduction.plainTypeListed(BulkReduction.ADD, ScalarType.F32, false));
    }

    @Test
    void unsignedAndSignedMinAndMax() {
        assertEquals(5L, BulkReduction.apply(BulkReduction.MIN, ScalarType.U32, 0xFFFFFFFFL, 5));
        assertEquals(0xFFFFFFFFL, BulkReduction.apply(BulkReduction.MIN, ScalarType.S32, 0xFFFFFFFFL, 5)); // -1 < 5
        assertEquals(-1L, BulkReduction.apply(BulkReduction.MAX, ScalarType.U64, -1L, 7));
        assertEquals(7L, BulkReduction.apply(BulkReduction.MAX, ScalarType.S64, -1L, 7));
    }

    @Test
    void incAndDecStayInZeroToTheSourceValue() {
        assertEquals(0L, BulkReduction.apply(BulkReduction.INC, ScalarType.U32, 9, 9));
        assertEquals(4L, BulkReduction.apply(BulkReduction.INC, ScalarType.U32, 3, 9));
        assertEquals(9L, BulkReduction.apply(BulkReduction.DEC, ScalarType.U32, 0, 9));
        assertEquals(9L, BulkReduction.apply(BulkReduction.DEC, ScalarType.U32, 12, 9));
        assertEquals(2L, BulkReduction.apply(BulkReduction.DEC, ScalarType.U32, 3, 9));
    }

    @Test
    void plainF32AddFlushesSubnormalInputsAndResultsToSignedZero() {
        long subnormal = 0x00000001L; // 2^-149
        long one = 0x3F800000L;
        assertEquals(one, BulkReduction.addF32FlushingSubnormals(one, subnormal), "the subnormal input counts as +0");
        long minNormal = 0x00800000L; // 2^-126
        long negHalfUlpBelow = 0x80400000L; // -2^-127, subnormal: flushed, so the sum stays 2^-126
        assertEquals(minNormal, BulkReduction.addF32FlushingSubnormals(minNormal, negHalfUlpBelow));
        // 2^-126 + -(2^-126 - 2^-149)... both normal inputs whose exact sum 2^-149 is subnormal: flushed to +0.
        assertEquals(0x80000000L & 0xFFFFFFFFL, BulkReduction.addF32FlushingSubnormals(0x00C00000L, 0x80E00000L) & 0x80000000L,
                "1.5*2^-126 - 1.75*2^-126 = -0.25*2^-126, subnormal, flushed to -0");
        assertEquals(0x80000000L, BulkReduction.addF32FlushingSubnormals(0x00C00000L, 0x80E00000L));
        assertEquals(0x40400000L, BulkReduction.addF32FlushingSubnormals(0x3F800000L, 0x40000000L), "1 + 2 = 3");
    }

    @Test
    void aBulkAddWhoseSumIsNaNGivesTheCanonicalNaN() {
        assertEquals(0x7FFFFFFFL, BulkReduction.apply(BulkReduction.ADD, ScalarType.F32, 0x7FC00001L, 0xFFC00002L));
        assertEquals(0x7FFFFFFFFFFFFFFFL, BulkReduction.apply(BulkReduction.ADD, ScalarType.F64, 0xFFF8000000000003L, 0x7FF8000000000004L));
        assertEquals(0x7FFFFFFFL, BulkReduction.addF32FlushingSubnormals(0x7F800000L, 0xFF800000L));
    }
}
