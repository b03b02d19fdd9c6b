package io.barrierscope.app.files;

import io.barrierscope.launch.LaunchValidation;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.barrierscope.app.session.LaunchSettings;
import io.barrierscope.exec.Dim3;
import io.barrierscope.launch.AtomicFiles;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Module;
import io.barrierscope.ptx.PtxException;
import io.barrierscope.ptx.PtxParser;
import io.barrierscope.ptx.Variable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The launch editor for a {@code .ptx} or {@code .cu} opened without a launch file: the kernel, grid, block,
 * cluster, dynamic shared memory, run policy and seed, and one row per kernel parameter (from the entry's
 * {@code .param} list), saved as a launch file (README, Launch files) that the engine's reader accepts. The
 * text is validated by {@link io.barrierscope.launch.LaunchValidation} against the PTX, as opening the file would, before
 * anything is written, and written atomically, so a launch file on disk is never half-written or invalid. No toolkit needed.
 */
public final class LaunchEditorViewModel {
    /** The element and value types a launch file takes. */
    public static final List<String> TYPES = List.of("u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "f32", "f64");
    /** Buffer initialisers; {@code random:SEED} is typed as such. */
    public static final List<String> INITS = List.of("zero", "iota", "random:1");
    /** Elements a pointer parameter's buffer gets unless the user says otherwise. */
    static final int DEFAULT_COUNT = 1024;

    /** What a kernel parameter becomes in the launch file. */
    public enum Kind {
        BUFFER("buffer"), VALUE("value"),
        /** A 128-byte CUtensorMap: only the author knows the tensor's shape; the launch file needs a tensorMap entry. */
        TENSOR_MAP("tensor map"),
        /** A by-value struct of another size: the launch file needs a struct entry. */
        STRUCT("struct");

        private final String label;
        Kind(String label) { this.label = label; }
        @Override public String toString() { return label; }
    }

    /** One kernel parameter and what the user chose for it. */
    public static final class Param {
        private final String name;
        private final String ptxType;
        private final long bytes;
        public final ObjectProperty<Kind> kind = new SimpleObjectProperty<>();
        public final StringProperty buffer = new SimpleStringProperty();
        public final StringProperty type = new SimpleStringProperty();
        public final StringProperty count = new SimpleStringProperty(Integer.toString(DEFAULT_COUNT));
        public final StringProperty init = new SimpleStringProperty("zero");
        public final StringProperty value = new SimpleStringProperty("0");

        Param(Variable v) {
            name = v.name();
            bytes = v.sizeBytes();
            ptxType = "." + v.type().ptxName() + (v.vector() > 1 ? " .v" + v.vector() : "") + (v.count() != 1 ? "[" + v.count() + "]" : "");
            buffer.set(v.name());
            if (bytes == io.barrierscope.sync.TensorMap.BYTES) {
                kind.set(Kind.TENSOR_MAP);
            } else if (bytes == 8) {
                kind.set(Kind.BUFFER); // a 64-bit parameter is almost always a pointer (what the command line assumes too)
                type.set("u32");
            } else if (bytes == 1 || bytes == 2 || bytes == 4) {
                kind.set(Kind.VALUE);
                String t = v.type().ptxName();
                type.set(TYPES.contains(t) ? t : "u" + (8 * bytes)); // .b32 and the like: unsigned of that width
            } else {
                kind.set(Kind.STRUCT);
            }
        }

        public String name() { return name; }
        public String ptxType() { return ptxType; }
        public long bytes() { return bytes; }
        /** Whether the user may switch between buffer and value (a 64-bit parameter). */
        public boolean pointerSized() { return bytes == 8; }

        /** Why this row cannot be written from the editor, or null. */
        public String note() {
            return switch (kind.get()) {
                case TENSOR_MAP -> "a CUtensorMap (128 bytes): the launch file needs a \"tensorMap\" entry {buffer, dims, box}"
                        + " for it, written by hand (README, Launch files)";
                case STRUCT -> "a " + bytes + "-byte by-value parameter: the launch file needs a \"struct\" entry for it,"
                        + " written by hand (README, Launch files)";
                default -> null;
            };
        }
    }

    private final Path opened;
    private final Path ptx;
    private final boolean compiled;
    private final List<Function> entries;
    /** The PTX as read when the editor opened: what the launch is validated against before it is saved. */
    private final String ptxText;
    public final StringProperty kernel = new SimpleStringProperty();
    public final StringProperty grid = new SimpleStringProperty();
    public final StringProperty block = new SimpleStringProperty();
    public final StringProperty cluster = new SimpleStringProperty("");
    public final StringProperty dynamicShared = new SimpleStringProperty("0");
    public final StringProperty policy = new SimpleStringProperty("round-robin");
    public final StringProperty seed = new SimpleStringProperty("0");
    public final StringProperty launchFile = new SimpleStringProperty();
    public final StringProperty error = new SimpleStringProperty("");
    private final ObservableList<Param> params = FXCollections.observableArrayList();

    /**
     * @param opened the file the user opened ({@code .ptx} or {@code .cu})
     * @param ptx the PTX to launch: {@code opened} itself, or what nvcc made of the {@code .cu}
     */
    public LaunchEditorViewModel(Path opened, Path ptx) {
        this.opened = opened.toAbsolutePath().normalize();
        this.ptx = ptx.toAbsolutePath().normalize();
        this.compiled = !this.opened.equals(this.ptx);
        Module m;
        try {
            ptxText = Files.readString(this.ptx, StandardCharsets.UTF_8);
            m = PtxParser.parse(this.ptx.toString(), ptxText);
        } catch (PtxException e) {
            throw new BadInputException(e.getMessage(), e);
        } catch (IOException e) {
            throw new BadInputException(this.ptx + ": error: cannot read: " + e.getMessage());
        }
        entries = m.entries();
        if (entries.isEmpty()) throw new BadInputException(this.ptx + ": error: the PTX has no .entry to run");
        String stem = stem(this.opened.getFileName().toString());
        launchFile.set(this.opened.resolveSibling(stem + ".launch.json").toString());
        kernel.addListener((o, a, b) -> chooseKernel(b));
        kernel.set(entries.get(0).name());
    }

    public Path opened() { return opened; }
    /** Whether the PTX came from nvcc (the launch file then gets a copy of it beside itself). */
    public boolean compiled() { return compiled; }
    public List<String> kernels() { return entries.stream().map(Function::name).toList(); }
    public ObservableList<Param> params() { return params; }

    /** The chosen entry's parameters and the shape its directives ask for (as the command line's defaults do). */
    private void chooseKernel(String name) {
        Function k = entries.stream().filter(f -> f.name().equals(name)).findFirst().orElse(entries.get(0));
        var d = k.directives();
        int[] c = d.reqnctapercluster() != null ? d.reqnctapercluster() : d.clusterDim();
        int[] t = d.reqntid();
        grid.set(c != null ? dimText(c) : "1,1,1");
        block.set(t != null ? dimText(t) : "32,1,1");
        cluster.set("");
        List<Param> ps = new ArrayList<>();
        for (Variable v : k.params()) ps.add(new Param(v));
        params.setAll(ps);
    }

    /** The launch file's JSON for the fields as they stand; a wrong field throws with a message naming it. */
    public String json(Path launch) {
        Path dir = launch.toAbsolutePath().normalize().getParent();
        ObjectNode root = new ObjectMapper().createObjectNode();
        root.put("ptx", dir.relativize(ptxTarget(launch)).toString().replace('\\', '/'));
        root.put("kernel", kernel.get());
        root.set("grid", dim(root, LaunchSettings.dim("grid", grid.get())));
        Dim3 b = LaunchSettings.dim("block", block.get());
        if (b.volume() > LaunchSettings.MAX_BLOCK) throw bad("block: a CTA has at most 1024 threads; " + b + " has " + b.volume());
        root.set("block", dim(root, b));
        String c = cluster.get() == null ? "" : cluster.get().trim();
        if (!c.isEmpty()) root.set("cluster", dim(root, LaunchSettings.dim("cluster", c)));
        long dyn = number("dynamic shared memory", dynamicShared.get());
        if (dyn != 0) root.put("dynamicSharedBytes", dyn);
        ArrayNode args = root.putArray("args");
        List<String> names = new ArrayList<>();
        for (Param p : params) {
            if (p.note() != null) throw bad("parameter " + p.name() + " is " + p.note());
            ObjectNode a = args.addObject();
            String type = p.type.get();
            if (!TYPES.contains(type)) throw bad("parameter " + p.name() + ": choose a type");
            if (p.kind.get() == Kind.BUFFER) {
                String n = p.buffer.get() == null ? "" : p.buffer.get().trim();
                if (n.isEmpty()) throw bad("parameter " + p.name() + ": the buffer needs a name");
                if (names.contains(n)) throw bad("parameter " + p.name() + ": another parameter already uses buffer '" + n + "'");
                names.add(n);
                a.put("buffer", n).put("type", type).put("count", number("parameter " + p.name() + " count", p.count.get()));
                a.put("init", p.init.get() == null ? "zero" : p.init.get().trim());
            } else {
                a.put("type", type);
                String v = p.value.get() == null ? "" : p.value.get().trim();
                try {
                    if (type.startsWith("f")) a.put("value", Double.parseDouble(v));
                    else a.put("value", new java.math.BigInteger(v));
                } catch (NumberFormatException e) {
                    throw bad("parameter " + p.name() + ": '" + v + "' is not a " + (type.startsWith("f") ? "number" : "whole number"));
                }
            }
        }
        ObjectNode run = root.putObject("run");
        run.put("policy", policy.get());
        run.put("seed", number("seed", seed.get()));
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException(e); // a tree of plain nodes always serialises
        }
    }

    /**
     * Saves the launch file the fields describe (with, for a {@code .cu}, the PTX nvcc made beside it) and
     * returns its path. The text is read back by the engine's own reader first: a field it refuses leaves
     * nothing written and throws with its message.
     */
    public Path save() {
        String name = launchFile.get() == null ? "" : launchFile.get().trim();
        if (name.isEmpty()) throw bad("choose where to save the launch file");
        Path launch = Path.of(name).toAbsolutePath().normalize();
        if (Files.isDirectory(launch)) throw bad(launch + " is a folder; name the launch file, e.g. kernel.launch.json");
        String text = json(launch);
        // Every check a launch file meets when it is opened (its JSON, then against the PTX: sizes, limits,
        // parameters), on the text about to be written: a refusal names launch:line:col exactly as
        // opening that file would, and nothing is written.
        LaunchValidation.validateText(launch, text, ptxText, LaunchValidation.Use.RUN, io.barrierscope.ptx.Cancellation.NONE);
        try {
            if (compiled) {
                Path copy = ptxTarget(launch);
                byte[] ptxBytes = Files.readAllBytes(ptx);
                if (Files.exists(copy) && !java.util.Arrays.equals(Files.readAllBytes(copy), ptxBytes)) {
                    throw bad(copy + " exists and differs from what nvcc made of " + opened.getFileName()
                            + "; save the launch file under another name or move that file");
                }
                AtomicFiles.write(copy, ptxBytes);
            }
            AtomicFiles.write(launch, text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw bad("cannot write " + launch + ": " + e.getMessage());
        }
        error.set("");
        return launch;
    }

    /** The PTX the launch file names: the opened .ptx, or for a .cu the compiled PTX's copy beside the launch file. */
    private Path ptxTarget(Path launch) {
        Path l = launch.toAbsolutePath().normalize();
        if (!compiled) return ptx;
        String n = l.getFileName().toString();
        if (n.toLowerCase(Locale.ROOT).endsWith(".json")) n = n.substring(0, n.length() - 5);
        return l.resolveSibling(n + ".ptx"); // k.launch.json: k.launch.ptx, never the k.ptx a user may keep beside k.cu
    }

    private static String stem(String file) {
        String s = file;
        for (String ext : List.of(".json", ".launch", ".ptx", ".cu")) {
            if (s.toLowerCase(Locale.ROOT).endsWith(ext)) s = s.substring(0, s.length() - ext.length());
        }
        return s.isEmpty() ? "kernel" : s;
    }

    private static String dimText(int[] v) {
        return Math.max(1, v[0]) + "," + Math.max(1, v.length > 1 ? v[1] : 1) + "," + Math.max(1, v.length > 2 ? v[2] : 1);
    }

    private static ArrayNode dim(ObjectNode root, Dim3 d) {
        ArrayNode a = root.arrayNode();
        a.add(d.x()).add(d.y()).add(d.z());
        return a;
    }

    private static long number(String what, String text) {
        String t = text == null ? "" : text.trim();
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw bad(what + ": '" + t + "' is not a whole number");
        }
    }

    private static BadInputException bad(String message) { return new BadInputException("launch editor: " + message); }
}
