package io.barrierscope.exec;

/** How a run ended (docs/report.md, "outcome"), or RUNNING while it has not. */
public enum Outcome {
    RUNNING("running"), COMPLETED("completed"), DEADLOCK("deadlock"), DIAGNOSED("diagnosed"),
    STEP_LIMIT("step-limit"), ERROR("error");

    private final String json;

    Outcome(String json) { this.json = json; }

    public String jsonName() { return json; }

    public static Outcome byJsonName(String s) {
        for (Outcome o : values()) if (o.json.equals(s)) return o;
        return null;
    }
}
