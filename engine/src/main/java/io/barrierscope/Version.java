package io.barrierscope;

/** The engine's version, written into traces and reports. Bump when semantics change. */
public final class Version {
    private Version() {}

    public static final String ENGINE = "barrierscope-engine 0.2";
}
