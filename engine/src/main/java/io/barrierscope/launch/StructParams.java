package io.barrierscope.launch;

import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.Program;
import io.barrierscope.exec.Space;
import io.barrierscope.sync.TensorMap;
import java.nio.ByteBuffer;

/**
 * What launch bundles add (part of {@link LaunchValidation}): a struct parameter's bytes and
 * fields written into the planned parameter bytes, and a device image's globals and constants
 * checked against the PTX's; {@link LaunchedRun} copies the image over the module's variables.
 */
final class StructParams {
    private StructParams() {}

    /** A global name to its planned address, or null: the module's variables first, then the buffers. */
    interface Resolver {
        Long base(String name);
    }

    /** A checked tensor map of a struct field, at {@code pointer}. */
    interface TensorMaps {
        TensorMap build(TensorMapSpec t, String pointer);
    }

    /** Writes {@code st} at the parameter's offset: its bytes (zeros unless given), then every field over them. */
    static void write(LaunchSpec spec, StructSpec st, String pointer, ByteBuffer params, Program.KernelParam kp, TensorMaps maps, Resolver names) {
        int base = kp.offset();
        if (st.initial() != null) params.put(base, st.initial(), 0, Math.min(st.initial().length, kp.size()));
        for (int i = 0; i < st.fields().size(); i++) {
            StructSpec.Field f = st.fields().get(i);
            int at = base + (int) f.offset();
            if (f.tensorMap() != null) {
                params.put(at, maps.build(f.tensorMap(), pointer + "/fields/" + i + "/tensorMap").encode());
            } else if (f.pointer() != null) {
                Long s = names.base(f.pointer());
                if (s == null) {
                    throw JsonLocations.error(spec, pointer + "/fields/" + i + "/pointer", "field points to buffer '" + f.pointer()
                            + "', which is neither a buffer argument nor one of the launch's \"buffers\"");
                }
                params.putLong(at, s + f.plus());
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

    /** Checks every variable of the image names one of the PTX's, of its exact size. */
    static void checkImage(LaunchSpec spec, DeviceImage image, Program program) {
        for (var e : image.globals().entrySet()) {
            GlobalMemory.Segment s = program.globalTemplate.byName(e.getKey());
            if (s == null) throw JsonLocations.error(spec, "/globals/" + e.getKey(), "the PTX has no .global variable '" + e.getKey() + "'");
            if (e.getValue().length != s.data().length) {
                throw JsonLocations.error(spec, "/globals/" + e.getKey(), "'" + e.getKey() + "' has " + s.data().length + " bytes; the image gives "
                        + e.getValue().length);
            }
        }
        for (var e : image.constants().entrySet()) {
            var placed = constant(program, e.getKey());
            if (placed == null) throw JsonLocations.error(spec, "/constants/" + e.getKey(), "the PTX has no .const variable '" + e.getKey() + "'");
            if (e.getValue().length != placed.size()) {
                throw JsonLocations.error(spec, "/constants/" + e.getKey(), "'" + e.getKey() + "' has " + placed.size() + " bytes; the image gives "
                        + e.getValue().length);
            }
        }
    }

    private static io.barrierscope.exec.SymbolTable.Placed constant(Program program, String name) {
        return program.symbols.all().stream().filter(p -> p.space() == Space.CONST && p.name().equals(name)).findFirst().orElse(null);
    }

    /** Overwrites the module's globals and constants with the image's bytes, by variable name (checked by {@link #checkImage}). */
    static void applyImage(DeviceImage image, Program program, GlobalMemory global, byte[] constBank) {
        for (var e : image.globals().entrySet()) {
            GlobalMemory.Segment s = global.byName(e.getKey());
            System.arraycopy(e.getValue(), 0, s.data(), 0, s.data().length);
        }
        for (var e : image.constants().entrySet()) {
            System.arraycopy(e.getValue(), 0, constBank, (int) constant(program, e.getKey()).offset(), e.getValue().length);
        }
    }
}
