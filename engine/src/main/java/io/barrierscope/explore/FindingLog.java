package io.barrierscope.explore;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * What a search has filed so far: one finding per cause (the first schedule to meet it, in the
 * order met), when each was first found, and the distinct outcomes seen (for the coverage).
 */
final class FindingLog {
    private final Map<String, Finding> findings = new LinkedHashMap<>();
    private final Set<String> outcomes = new HashSet<>();
    /** Clock reading (since the start) when each cause was first found: for benchmarks, never part of a result. */
    private final Map<String, Long> foundAfter = new LinkedHashMap<>();

    /**
     * Files the causes and outcome of schedule number {@code schedule} (summary {@code s}), found
     * {@code elapsed} clock units after the start (read only for a new cause, as a clock that counts
     * its reads sees no change); a cause already filed keeps its first finding.
     */
    void file(ScheduleRunner.Summary s, long schedule, LongSupplier elapsed) {
        for (Causes.Cause c : s.causes()) {
            if (findings.containsKey(c.cause())) continue;
            foundAfter.put(c.cause(), elapsed.getAsLong());
            findings.put(c.cause(), new Finding(c.kind(), c.code(), c.cause(), c.message(), c.step(), s.taken(), schedule, c.lines(),
                    s.outcome().jsonName()));
        }
        outcomes.add(s.key());
    }

    int size() { return findings.size(); }

    int outcomes() { return outcomes.size(); }

    /** The findings in the order they were found (a fresh list). */
    List<Finding> list() { return new ArrayList<>(findings.values()); }

    /** Clock units from the start until {@code f} was first found, or -1. */
    long foundAfter(Finding f) { return foundAfter.getOrDefault(f.cause(), -1L); }
}
