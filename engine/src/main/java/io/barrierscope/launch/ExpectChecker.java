package io.barrierscope.launch;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Compares a finished run with an {@code expect} block and says exactly what differed. */
final class ExpectChecker {
    private ExpectChecker() {}

    static final int MAX_LISTED = 20;

    static List<String> differences(Expectation e, Outcome outcome, List<Diagnostic> diags, Map<String, List<Number>> buffers) {
        List<String> out = new ArrayList<>();
        if (e == null) return out;
        if (e.outcome() != null && !e.outcome().equals(outcome.jsonName())) {
            out.add("outcome: expected " + e.outcome() + ", got " + outcome.jsonName());
        }
        for (String code : e.diagnostics()) {
            if (diags.stream().noneMatch(d -> d.code().code().equals(code))) {
                out.add("diagnostic " + code + ": expected but not reported"
                        + (diags.isEmpty() ? "" : " (reported: " + String.join(", ", diags.stream().map(d -> d.code().code()).toList()) + ")"));
            }
        }
        for (Map.Entry<String, List<Number>> b : e.buffers().entrySet()) {
            List<Number> got = buffers.get(b.getKey());
            if (got == null) {
                out.add("buffer " + b.getKey() + ": no such buffer in the launch");
                continue;
            }
            List<Number> want = b.getValue();
            if (want.size() > got.size()) {
                out.add("buffer " + b.getKey() + ": expected " + want.size() + " values, the buffer has " + got.size());
                continue;
            }
            int listed = 0;
            int wrong = 0;
            for (int i = 0; i < want.size(); i++) {
                if (!same(want.get(i), got.get(i), e.exact())) {
                    wrong++;
                    if (listed++ < MAX_LISTED) out.add("buffer " + b.getKey() + "[" + i + "]: expected " + want.get(i) + ", got " + got.get(i));
                }
            }
            if (wrong > MAX_LISTED) out.add("buffer " + b.getKey() + ": " + (wrong - MAX_LISTED) + " more differences");
        }
        return out;
    }

    /**
     * Whether a value is as expected. Floats match within a relative 1e-5 unless the block says
     * {@code "exact": true}: then an .f32 value must be the float the expected number rounds to
     * (bit for bit) and an .f64 value the double it reads as.
     */
    static boolean same(Number want, Number got, boolean exact) {
        if (got instanceof Double g) {
            double w = want.doubleValue();
            if (Double.isNaN(w) && Double.isNaN(g)) return true;
            if (exact) {
                boolean f32 = (double) (float) (double) g == g; // an .f32 buffer's values are floats widened
                return Double.doubleToLongBits(w) == Double.doubleToLongBits(g)
                        || f32 && Float.floatToIntBits((float) w) == Float.floatToIntBits((float) (double) g);
            }
            return w == g || Math.abs(w - g) <= 1e-5 * Math.max(1, Math.abs(w));
        }
        return want.longValue() == got.longValue() && !(want instanceof Double d && d != Math.rint(d));
    }
}
