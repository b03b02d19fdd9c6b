package io.barrierscope.launch;

import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.Program;
import io.barrierscope.exec.Space;
import java.nio.ByteBuffer;

/**
 * Places what launch bundles add: a struct parameter's bytes and fields in the kernel's
 * parameter buffer, and a device image's globals and constants over the PTX's own.
 */
final class StructParams {
    private StructParams() {}

    /** Writes {@code st} at the parameter's offset: its bytes (zeros unless given), then every field over them. */
    static void write(LaunchSpec spec, StructSpec st, String pointer, ByteBuffer params, Program.KernelParam kp, GlobalMemory global) {
        int base = kp.offset();
        if (st.initial() != null) params.put(base, st.initial(), 0, Math.min(st.initial().length, kp.size()));
        for (int i = 0; i < st.fields().size(); i++) {
            StructSpec.Field f = st.fields().get(i);
            int at = base + (int) f.offset();
            if (f.tensorMap() != null) {
                params.put(at, LaunchedRun.tensorMap(spec, f.tensorMap(), global, pointer + "/fields/" + i + "/tensorMap").encode());
            } else if (f.pointer() != null) {
                GlobalMemory.Segment s = global.byName(f.pointer());
                if (s == null) {
                    throw LaunchValidation.located(spec, pointer + "/fields/" + i + "/pointer", "field points to buffer '" + f.pointer()
                            + "', which is neither a buffer argument nor one of the launch's \"buffers\"");
                }
                params.putLong(at, s.base() + f.plus());
            } else {
                long v = BufferCodec.bits(f.value(), f.type());
                switch (f.type().bytes()) {
                    case 1 -> params.put(at, (byte) v);
                    case 2 -> params.putShort(at, (short) v);
                    case 4 -> params.putInt(at, (int) v);
                    default -> params.putLong(at, v);
                }
            }
        }
    }

    /** Overwrites the module's globals and constants with the image's bytes, by variable name. */
    static void applyImage(LaunchSpec spec, DeviceImage image, Program program, GlobalMemory global, byte[] constBank) {
        for (var e : image.globals().entrySet()) {
            GlobalMemory.Segment s = global.byName(e.getKey());
            if (s == null) throw LaunchValidation.located(spec, "/globals/" + e.getKey(), "the PTX has no .global variable '" + e.getKey() + "'");
            if (e.getValue().length != s.data().length) {
                throw LaunchValidation.located(spec, "/globals/" + e.getKey(), "'" + e.getKey() + "' has " + s.data().length + " bytes; the image gives "
                        + e.getValue().length);
            }
            System.arraycopy(e.getValue(), 0, s.data(), 0, s.data().length);
        }
        for (var e : image.constants().entrySet()) {
            var placed = program.symbols.all().stream().filter(p -> p.space() == Space.CONST && p.name().equals(e.getKey())).findFirst()
                    .orElseThrow(() -> LaunchValidation.located(spec, "/constants/" + e.getKey(), "the PTX has no .const variable '" + e.getKey() + "'"));
            if (e.getValue().length != placed.size()) {
                throw LaunchValidation.located(spec, "/constants/" + e.getKey(), "'" + e.getKey() + "' has " + placed.size() + " bytes; the image gives "
                        + e.getValue().length);
            }
            System.arraycopy(e.getValue(), 0, constBank, (int) placed.offset(), e.getValue().length);
        }
    }
}
