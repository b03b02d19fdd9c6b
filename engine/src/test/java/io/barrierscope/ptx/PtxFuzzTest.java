package io.barrierscope.ptx;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Robustness: damaged PTX and random token soup must give a Module or a PtxException located
 * inside the text, never another exception and never a hang.
 */
class PtxFuzzTest {

    private static final String BUILTIN_SEED = PtxTestSupport.kernelText(
            "  .shared .align 4 .b8 smem[64];\n  mov.u32 %r1, %tid.x;\n  setp.ne.s32 %p1, %r1, 0;\n  @%p1 bra $L__BB0_2;\n"
            + "  { .reg .pred p; setp.ne.b32 p, %r1, 0; selp.u32 %r2, 1, 0, p; }\n"
            + "  st.shared.u32 [smem+4], %r2;\n  shfl.sync.down.b32 %r3|%p2, %r1, 1, 31, -1;\n$L__BB0_2:\n"
            + "\t.loc 1 5 3\n  bar.sync 0;\n  ret;") + ".global .align 1 .b8 $str[3] = {104, 105, 0};\n.file 1 \"k.cu\"\n";

    private static final String[] ALPHABET = {
        ";", ",", "{", "}", "[", "]", "(", ")", "<", ">", "+", "-", "*", "/", "%", "!", "~", "&", "|", "^", "=", ":",
        "@", "_", "<<", ">>", "==", ".reg", ".b32", ".b8", ".pred", ".u64", ".f32", ".v4", ".param", ".shared",
        ".global", ".local", ".const", ".align", ".entry", ".func", ".visible", ".extern", ".weak", ".loc", ".file",
        ".section", ".debug_str", ".pragma", ".maxntid", ".reqntid", ".noreturn", ".version", ".target",
        ".address_size", ".callprototype", ".branchtargets", ".ptr", "%r1", "%r<5>", "%p1", "%rd2", "%tid.x",
        "%envreg3", "%nosuch", "$L__BB0_1", "$L__BB0_1:", "param0", "retval0", "vprintf", "smem", "call.uni", "bra",
        "brx.idx", "ld.global.u32", "st.shared.v2.f32", "mov.u32", "setp.ne.s32", "@%p1", "@!%p1", "0", "1", "-1",
        "0x10", "0f3F800000", "0d3FF0000000000000", "1.5", "1e-3", "7U", "0b101", "017", "\"s\"", "//", "/*", "*/",
        "\n", "\t", "{ .reg .pred p; }", "[%rd1+4]", "\"", "99999999999", "1000000", "2000000", "9.0", "sm_90a"};

    private static final Pattern TOKEN = Pattern.compile("\\s+|[A-Za-z0-9_$%.:]+|.", Pattern.DOTALL);

    private static final List<String> SEEDS = loadSeeds();

    private static List<String> loadSeeds() {
        List<String> seeds = new ArrayList<>();
        seeds.add(BUILTIN_SEED);
        for (Path p : PtxCorpusTest.corpusFiles()) {
            try {
                seeds.add(Files.readString(p));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return seeds;
    }

    @Property(tries = 300)
    void mutatedRealPtxGivesModuleOrLocatedError(@ForAll("mutatedPtx") String text) {
        check(text);
    }

    @Property(tries = 300)
    void randomTokenSoupGivesModuleOrLocatedError(@ForAll("tokenSoup") String text) {
        check(text);
    }

    @Provide
    Arbitrary<String> mutatedPtx() {
        return Combinators.combine(Arbitraries.integers().between(0, SEEDS.size() - 1), Arbitraries.longs())
                .as((i, seed) -> mutate(SEEDS.get(i), new Random(seed)));
    }

    @Provide
    Arbitrary<String> tokenSoup() {
        Arbitrary<String> token = Arbitraries.of(ALPHABET);
        Arbitrary<String> sep = Arbitraries.of("", " ", "\n", "\t", " ; ");
        return Combinators.combine(token, sep).as((t, s) -> t + s).list().ofMaxSize(200)
                .map(l -> (Math.abs(l.hashCode()) % 2 == 0 ? PtxTestSupport.HEADER : "") + String.join("", l));
    }

    /** Applies 1-6 random token-level or character-level mutations. */
    static String mutate(String seed, Random r) {
        List<String> toks = new ArrayList<>();
        Matcher m = TOKEN.matcher(seed);
        while (m.find()) toks.add(m.group());
        int n = 1 + r.nextInt(6);
        for (int k = 0; k < n && !toks.isEmpty(); k++) {
            int i = r.nextInt(toks.size());
            switch (r.nextInt(7)) {
                case 0 -> toks.remove(i);
                case 1 -> toks.add(i, toks.get(i));
                case 2 -> {
                    int j = r.nextInt(toks.size());
                    String t = toks.get(i);
                    toks.set(i, toks.get(j));
                    toks.set(j, t);
                }
                case 3 -> {
                    String all = String.join("", toks);
                    int cut = r.nextInt(all.length() + 1);
                    toks.clear();
                    toks.add(all.substring(0, cut));
                }
                case 4 -> toks.add(i, String.valueOf(randomChar(r)));
                case 5 -> toks.add(i, ALPHABET[r.nextInt(ALPHABET.length)]);
                default -> toks.set(i, ALPHABET[r.nextInt(ALPHABET.length)]);
            }
        }
        return String.join("", toks);
    }

    private static char randomChar(Random r) {
        String specials = "\u0000\u00e9\u2028\r\t\n\"'\\#`";
        return r.nextInt(4) == 0 ? specials.charAt(r.nextInt(specials.length())) : (char) (0x20 + r.nextInt(0x5F));
    }

    static void check(String text) {
        int lines = text.split("\n", -1).length;
        try {
            Module m = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> PtxParser.parse("fuzz.ptx", text));
            assertNotNull(m);
        } catch (PtxException e) {
            assertTrue(e.pos().line() >= 1 && e.pos().line() <= lines, "line within text: " + e.getMessage());
            assertTrue(e.pos().col() >= 1, e.getMessage());
            assertFalse(e.detail().startsWith("internal parser error"), e.getMessage());
            assertNotNull(e.lineText());
        }
    }
}
