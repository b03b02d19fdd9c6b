package io.barrierscope.diag;

/** How bad a diagnostic is. An error is undefined behaviour or a fault: it stops the run. */
public enum Severity {
    ERROR, WARNING, INFO;

    public String jsonName() { return name().toLowerCase(java.util.Locale.ROOT); }
}
