package io.barrierscope.launch;

import java.util.List;
import java.util.Map;

/** The optional {@code expect} block: outcome, buffer contents, diagnostic codes that must be reported. */
public record Expectation(String outcome, Map<String, List<Number>> buffers, List<String> diagnostics, boolean exact) {
    public Expectation(String outcome, Map<String, List<Number>> buffers, List<String> diagnostics) {
        this(outcome, buffers, diagnostics, false);
    }
}
