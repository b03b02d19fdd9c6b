package io.barrierscope.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Kernel names for people: {@code _Z5stuckPi} is shown as {@code stuck(int*)}, by binutils'
 * c++filt (installed wherever gcc is); the mangled name when it is missing or says nothing.
 * Only messages use it; bundles, files and filters keep the mangled name.
 */
final class Demangler {
    private static final Map<String, String> CACHE = new HashMap<>();

    private Demangler() {}

    static synchronized String of(String mangled) {
        if (!mangled.startsWith("_Z")) return mangled;
        return CACHE.computeIfAbsent(mangled, Demangler::run);
    }

    private static String run(String mangled) {
        try {
            Process p = new ProcessBuilder("c++filt", mangled).redirectErrorStream(true).start();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return mangled;
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.exitValue() == 0 && !out.isEmpty() && !out.contains("\n") ? out : mangled;
        } catch (IOException e) {
            return mangled;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return mangled;
        }
    }
}
