package io.barrierscope.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/** Damages launch JSON: values replaced by hostile ones, values or keys removed or added, raw bytes flipped. */
final class JsonMutator {
    private JsonMutator() {}

    private static final String[] KEYS = {"ptx", "kernel", "grid", "block", "cluster", "args", "buffers", "expect", "run",
        "dynamicSharedBytes", "value", "count", "data", "init", "type", "tensorMap", "dims", "box", "strides", "latency", "maxSteps",
        "seed", "policy", "outcome", "diagnostics", "nonsense"};

    static String mutate(String json, Random r) {
        int rounds = 1 + r.nextInt(3);
        for (int k = 0; k < rounds; k++) json = once(json, r);
        return json;
    }

    private static String once(String json, Random r) {
        List<int[]> spans = FuzzInputs.valueSpans(json);
        switch (r.nextInt(7)) {
            case 0, 1, 2 -> {
                if (spans.isEmpty()) return json;
                int[] s = spans.get(r.nextInt(spans.size()));
                return json.substring(0, s[0]) + FuzzInputs.hostileJsonValue(r) + json.substring(s[1]);
            }
            case 3 -> {
                if (spans.isEmpty()) return json;
                int[] s = spans.get(r.nextInt(spans.size()));
                return json.substring(0, s[0]) + json.substring(s[1]);
            }
            case 4 -> {
                int i = json.indexOf('{', r.nextInt(Math.max(1, json.length())));
                if (i < 0) return json;
                return json.substring(0, i + 1) + "\"" + KEYS[r.nextInt(KEYS.length)] + "\": " + FuzzInputs.hostileJsonValue(r)
                        + ", " + json.substring(i + 1);
            }
            case 5 -> { // raw bytes, invalid UTF-8 included
                byte[] b = json.getBytes(StandardCharsets.UTF_8);
                if (b.length == 0) return json;
                int n = 1 + r.nextInt(3);
                for (int k = 0; k < n; k++) b[r.nextInt(b.length)] = (byte) r.nextInt(256);
                return new String(b, StandardCharsets.ISO_8859_1);
            }
            default -> {
                int a = r.nextInt(json.length() + 1);
                int c = Math.min(json.length(), a + r.nextInt(20));
                return json.substring(0, a) + json.substring(c);
            }
        }
    }
}
