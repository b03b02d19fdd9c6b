package io.barrierscope.ptx;

import static io.barrierscope.ptx.PtxTestSupport.assertKernelError;
import static io.barrierscope.ptx.PtxTestSupport.only;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class PtxImmediateTest {

    private static Operand.Imm imm(String text) {
        return (Operand.Imm) only("mov.b64 %rd1, " + text + ";").operands().get(1);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiterString = " => ", value = {
            "42 => 42", "0 => 0", "0x1F => 31", "0XfF => 255", "017 => 15", "0b101 => 5", "0B11 => 3",
            "7U => 7", "-1 => -1", "-0x80000000 => -2147483648", "0xFFFFFFFFFFFFFFFF => -1",
            "18446744073709551615U => -1", "1+2*3 => 7", "(1+2)*3 => 9", "10-4-3 => 3", "7/2 => 3",
            "-7/2 => -3", "7%3 => 1", "1<<4 => 16", "-16>>2 => -4", "0xFFFFFFFFFFFFFFF0U>>60 => 15",
            "6&3 => 2", "6|3 => 7", "6^3 => 5", "~0 => -1", "!0 => 1", "!5 => 0", "3>2 => 1", "3<=2 => 0",
            "2==2 => 1", "2!=2 => 0", "1&&0 => 0", "1||0 => 1", "-(2+3) => -5", "- -4 => 4",
            "0xFFFFFFFFFFFFFFFFU/2 => 9223372036854775807"})
    void integerConstantsAndExpressions(String text, long expected) {
        Operand.Imm v = imm(text);
        assertEquals(Operand.ImmKind.INT, v.kind());
        assertEquals(expected, v.value());
    }

    @Test
    void hexFloat32LiteralKeepsItsBits() {
        Operand.Imm v = imm("0f3F800000");
        assertEquals(Operand.ImmKind.FLOAT32, v.kind());
        assertEquals(0x3F800000L, v.value());
    }

    @Test
    void hexFloat64LiteralKeepsItsBits() {
        Operand.Imm v = imm("0d3FF8000000000000");
        assertEquals(Operand.ImmKind.FLOAT64, v.kind());
        assertEquals(Double.doubleToRawLongBits(1.5), v.value());
    }

    @Test
    void decimalFloatsAreDoubleBits() {
        assertEquals(new Operand.Imm(Double.doubleToRawLongBits(1.5), Operand.ImmKind.FLOAT64), imm("1.5"));
        assertEquals(new Operand.Imm(Double.doubleToRawLongBits(1e-3), Operand.ImmKind.FLOAT64), imm("1e-3"));
        assertEquals(new Operand.Imm(Double.doubleToRawLongBits(2.5e+2), Operand.ImmKind.FLOAT64), imm("2.5e+2"));
    }

    @Test
    void negatedFloatLiteralFlipsTheSignBit() {
        assertEquals(0xBF800000L, imm("-0f3F800000").value());
        assertEquals(Double.doubleToRawLongBits(-1.5), imm("-1.5").value());
    }

    @Test
    void divisionByZeroIsReported() {
        assertKernelError("  mov.u32 %r1, 4/0;", 0, 17, "division by zero");
    }

    @Test
    void arithmeticOnFloatsIsReported() {
        assertKernelError("  mov.f32 %f1, 0f3F800000+1;", 0, 26, "operator '+' needs integer operands");
    }

    @Test
    void unbalancedParenthesisIsReported() {
        assertKernelError("  mov.u32 %r1, (1+2;", 0, 20, "expected ')'");
    }

    @Test
    void deeplyNestedExpressionIsRejectedNotOverflowingTheStack() {
        String deep = "(".repeat(5000) + "1" + ")".repeat(5000);
        assertKernelError("  mov.u32 %r1, " + deep + ";", 0, 216, "expression too deeply nested");
    }
}
