package io.barrierscope.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.ptx.ScalarType;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** A launch built in code is written as the launch file it stands for (and read back through its checks). */
class LaunchSpecJsonTest {
    @Test
    void integersBuiltInCodeAreWrittenAsTheValueOfTheirTypesBitPattern() {
        assertEquals(new BigInteger("18446744073709551615"), LaunchSpecJson.asWritten(-1L, ScalarType.U64));
        assertEquals(new BigInteger(Long.toUnsignedString(Double.doubleToRawLongBits(-2.5))),
                LaunchSpecJson.asWritten(Double.doubleToRawLongBits(-2.5), ScalarType.B64));
        assertEquals(0xFFFFFFFFL, LaunchSpecJson.asWritten(-1L, ScalarType.U32).longValue());
        assertEquals(-1L, LaunchSpecJson.asWritten(0xFFFFFFFFL, ScalarType.S32).longValue());
        assertEquals(-1L, LaunchSpecJson.asWritten(-1L, ScalarType.S64).longValue());
    }

    @Test
    void valuesAlreadyInTheirTypesRangeAreWrittenAsTheyAre() {
        assertEquals(300L, LaunchSpecJson.asWritten(300L, ScalarType.U32).longValue());
        assertEquals(-5L, LaunchSpecJson.asWritten(-5L, ScalarType.S8).longValue());
        assertEquals(1.5, LaunchSpecJson.asWritten(1.5, ScalarType.F32).doubleValue());
    }
}
