package io.barrierscope.ptx;

import static io.barrierscope.ptx.PtxTestSupport.assertError;
import static io.barrierscope.ptx.PtxTestSupport.assertKernelError;
import static io.barrierscope.ptx.PtxTestSupport.kernel;
import static io.barrierscope.ptx.PtxTestSupport.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PtxLexerTest {

    private static List<Token> lex(String s) { return PtxLexer.lex(new PtxSource("t.ptx", s)); }

    @Test
    void dotWordsKeepDoubleColonSegments() {
        List<Token> t = lex("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes .L2::cache_hint .2d");
        assertEquals(List.of("cp", ".async", ".bulk", ".shared::cluster", ".global", ".mbarrier::complete_tx::bytes",
                ".L2::cache_hint", ".2d", ""), t.stream().map(Token::text).toList());
    }

    @Test
    void lineCommentsAndBlockCommentsAreSkippedAndLinesCounted() {
        List<Token> t = lex("// one\n/* two\n three */ ret; // four\n  exit");
        assertEquals("ret", t.get(0).text());
        assertEquals(3, t.get(0).line());
        assertEquals(11, t.get(0).col());
        assertEquals(4, t.get(2).line());
        assertEquals(3, t.get(2).col());
    }

    @Test
    void registersAndLabelsAreIdentifiers() {
        List<Token> t = lex("%r1 %SPL $L__BB0_1 $str$1 _ %tid.x");
        assertEquals(List.of("%r1", "%SPL", "$L__BB0_1", "$str$1", "_", "%tid", ".x"),
                t.subList(0, 7).stream().map(Token::text).toList());
        t.subList(0, 6).forEach(k -> assertEquals(Token.Kind.IDENT, k.kind()));
    }

    @Test
    void percentBeforeDigitIsTheModuloOperator() {
        assertEquals(1, ((Operand.Imm) only("mov.u32 %r1, 10%3;").operands().get(1)).value());
    }

    @Test
    void twoCharacterOperatorsAreOneToken() {
        assertEquals(List.of("<<", ">>", "<=", ">=", "==", "!=", "&&", "||"),
                lex("<< >> <= >= == != && ||").stream().filter(k -> k.kind() == Token.Kind.PUNCT).map(Token::text).toList());
    }

    @Test
    void sectionBodiesAreSkippedWithoutTokenising() {
        List<Token> t = lex(".section .debug_str { $L__x: .b8 1,2 # ` weird { nested } \"}\" // }\n } .version");
        assertEquals(List.of(".section", ".debug_str", "{", "}", ".version", ""), t.stream().map(Token::text).toList());
    }

    @Test
    void unterminatedBlockCommentIsReportedAtItsStart() {
        assertError(".version 9.0\n  /* never\n closed", 2, 3, "unterminated comment");
    }

    @Test
    void unterminatedStringIsReported() {
        assertError(".version 9.0\n.file 1 \"k.cu\n", 2, 9, "unterminated string");
    }

    @Test
    void unexpectedCharacterIsReportedAtItsColumn() {
        assertKernelError("  mov.u32 %r1, #5;", 0, 16, "unexpected character '#'");
    }

    @Test
    void malformedFloatLiteralIsReported() {
        assertKernelError("  mov.f32 %f1, 0f3F80000;", 0, 16, "malformed floating-point literal '0f3F80000'");
    }

    @Test
    void malformedNumberIsReported() {
        assertKernelError("  mov.u32 %r1, 12abc;", 0, 16, "malformed number '12abc'");
    }

    @Test
    void integerLiteralBeyond64BitsIsReported() {
        assertKernelError("  mov.u64 %rd1, 18446744073709551616;", 0, 17, "integer literal out of range '18446744073709551616'");
    }

    @Test
    void carriageReturnsAreWhitespace() {
        assertEquals(1, kernel("  ret;\r\n").instructions().size());
    }

    @Test
    void theParserForgetsTokensBehindItSoALongFileHoldsNoListOfItsTokens() {
        // A 4 MB initialiser list once took hundreds of MB of tokens held at once.
        StringBuilder sb = new StringBuilder(".global .u32 g[200000] = {");
        for (int i = 0; i < 200_000; i++) sb.append(i == 0 ? "" : ",").append(7);
        sb.append("};\n");
        Cursor c = new Cursor(new PtxSource("t.ptx", sb.toString()));
        int most = 0;
        while (!c.atEof()) {
            c.next();
            most = Math.max(most, c.held());
        }
        assertTrue(most <= 2 * Cursor.CHECK_EVERY, "held at most " + most + " tokens");
        // An instruction's own tokens stay until its text is taken, however many it has.
        Cursor d = new Cursor(new PtxSource("t.ptx", "add.u32 %r1, %r2, " + "1+".repeat(50_000) + "1;"));
        int from = d.mark();
        while (!d.peek().is(";")) d.next();
        assertTrue(d.textBetween(from, d.mark()).endsWith("1+1+1"));
    }
}
