package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;

/**
 * Assertions for the Target ISA and PTX ISA notes (docs/semantics.md section 15): a form is
 * refused at load below its target or before its version, by name, with the note's section and the
 * file's line and column, and loads on the target or version the note names. The instruction is
 * the last line of {@code body}; earlier lines may declare what it needs (a .b128 register).
 */
final class IsaNoteChecks {
    private IsaNoteChecks() {}

    private static final String HEADER = ".shared .align 16 .b8 sm[256];\n.shared .align 8 .b64 bar;";

    private static ExecKernel kernel(String body, String target, String version) {
        return ExecKernel.of(body).header(HEADER).target(target).version(version);
    }

    private static String mnemonic(String body) {
        String insn = body.substring(body.lastIndexOf('\n') + 1).trim();
        int sp = insn.indexOf(' ');
        return sp < 0 ? insn.substring(0, insn.length() - 1) : insn.substring(0, sp);
    }

    /** Refused on {@code target} (version 9.0): "requires {needs} (PTX ISA {section}, Target ISA Notes)". */
    static void refusedOnTarget(String body, String target, String needs, String section) {
        BadInputException e = assertThrows(BadInputException.class, () -> kernel(body, target, "9.0").launch(), body + " on " + target);
        String m = e.getMessage();
        assertTrue(m.contains("unsupported instruction " + mnemonic(body) + " on .target " + target), m);
        assertTrue(m.contains("requires " + needs + " (PTX ISA " + section + ", Target ISA Notes)"), m);
        assertTrue(m.matches("(?s).*k\\.ptx:\\d+:\\d+: .*"), m);
    }

    static void loadsOnTarget(String body, String target) {
        assertDoesNotThrow(() -> kernel(body, target, "9.0").launch(), body + " on " + target);
    }

    /** Refused in {@code version} (target sm_90a): "[what ]introduced in PTX ISA {since} ({section}, PTX ISA Notes)". */
    static void refusedInVersion(String body, String version, String what, String since, String section) {
        BadInputException e = assertThrows(BadInputException.class, () -> kernel(body, "sm_90a", version).launch(), body + " in " + version);
        String m = e.getMessage();
        assertTrue(m.contains("unsupported instruction " + mnemonic(body) + " in .version " + version + ": "
                + (what.isEmpty() ? "" : what + " ") + "introduced in PTX ISA " + since + " (" + section + ", PTX ISA Notes)"), m);
        assertTrue(m.matches("(?s).*k\\.ptx:\\d+:\\d+: .*"), m);
    }

    static void loadsInVersion(String body, String version) {
        assertDoesNotThrow(() -> kernel(body, "sm_90a", version).launch(), body + " in .version " + version);
    }

    /** Refused on {@code below} as {@link #refusedOnTarget} says, and loads on {@code at}. */
    static void needsTarget(String body, String below, String at, String needs, String section) {
        refusedOnTarget(body, below, needs, section);
        loadsOnTarget(body, at);
    }

    /** Refused in {@code below} as {@link #refusedInVersion} says, and loads in {@code since}. */
    static void needsVersion(String body, String below, String what, String since, String section) {
        refusedInVersion(body, below, what, since, section);
        loadsInVersion(body, since);
    }

    /**
     * {@link #needsTarget} and {@link #needsVersion} for a note whose target message names the same
     * {@code what} as its version message: "requires {target} or higher[ ({what})]".
     */
    static void needsTargetAndVersion(String body, String belowTarget, String target, String belowVersion, String version, String what,
            String section) {
        needsTarget(body, belowTarget, target, target + " or higher" + (what.isEmpty() ? "" : " (" + what + ")"), section);
        needsVersion(body, belowVersion, what, version, section);
    }
}
