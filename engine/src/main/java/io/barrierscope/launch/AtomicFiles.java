package io.barrierscope.launch;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes a file so that readers see the old contents or the new, never half a file. The path is
 * the user's (a report, a trace, an export): one the system refuses (a folder, an empty name, a
 * parent that is a file, a full disk) is bad input named as such, never an internal failure.
 */
public final class AtomicFiles {
    private AtomicFiles() {}

    /** What a file is made of, written to the stream given (buffered; not closed by the body). */
    public interface Body {
        void write(java.io.OutputStream out) throws IOException;
    }

    public static void write(Path path, byte[]... parts) throws IOException {
        write(path, out -> {
            for (byte[] p : parts) out.write(p);
        });
    }

    /**
     * Writes what {@code body} writes, streamed to the temporary file: an output is never held in
     * memory whole (a Chrome export of a 4M-step trace, built in memory first, ran a 256 MB heap
     * out of memory). A body that throws leaves the old file as it was.
     */
    public static void write(Path path, Body body) throws IOException {
        Path abs = target(path);
        Path dir = abs.getParent();
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = freshFile(dir, tempPrefix(abs.getFileName().toString()));
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                java.io.OutputStream out = new java.io.BufferedOutputStream(java.nio.channels.Channels.newOutputStream(ch), 1 << 16);
                body.write(out);
                out.flush();
                ch.force(true);
            }
            keepPermissions(abs, tmp); // after the bytes: a read-only mode would refuse them
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | SecurityException e) {
            throw cannot(path, why(e));
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    // Left behind as a hidden .tmp beside the target: the write's own outcome is what to report.
                }
            }
        }
    }

    /**
     * Refuses, before a command runs, an output {@link #write} would refuse for its name or what
     * stands there: an empty name (was said to be a folder), a folder, a device or pipe, a file
     * where one of its folders should be (was found only after a whole run, e.g. `diff`'s).
     * Nothing is written. A full disk or a refused permission is still found when it is written.
     */
    public static void check(Path path) {
        Path abs = target(path);
        for (Path up = abs.getParent(); up != null; up = up.getParent()) {
            if (!Files.exists(up)) continue;
            if (!Files.isDirectory(up)) throw cannot(path, "a part of its folder is a file");
            break;
        }
    }

    /** The file {@code path} writes (through links), refused when it is no name, a folder, or not a regular file. */
    private static Path target(Path path) {
        if (path.toString().isEmpty()) throw cannot(path, "the name is empty; name a file");
        Path abs = path.toAbsolutePath().normalize();
        try {
            abs = linkedFile(path, abs);
        } catch (IOException | SecurityException e) {
            throw cannot(path, e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
        if (abs.getParent() == null || Files.isDirectory(abs)) throw cannot(path, "it is a folder; name a file");
        if (Files.exists(abs) && !Files.isRegularFile(abs)) throw cannot(path, "it is not a regular file (a device or pipe is not replaced)");
        return abs;
    }

    /**
     * The file a link names, through every link, or {@code abs} itself: the new file replaces the
     * link's file and the link stays. Moved onto the link, the new file replaced the link itself
     * (`--report /dev/stdout`, a link to /proc/self/fd/1, became a plain file in /dev) and the
     * linked file kept its old contents. A link whose file does not exist yet names where it goes.
     */
    private static Path linkedFile(Path shown, Path abs) throws IOException {
        Path p = abs;
        for (int hops = 0; Files.isSymbolicLink(p); hops++) {
            if (hops == 40) throw cannot(shown, "it is a chain of more than 40 links");
            // /dev/stdout and /dev/fd/N are links in /proc/self/fd: the process's own streams, not files to replace.
            if (p.getParent().toRealPath().startsWith("/proc")) {
                throw cannot(shown, "it is a stream of this process (" + p + "), not a file; name a file");
            }
            p = p.getParent().resolve(Files.readSymbolicLink(p)).toAbsolutePath();
        }
        return p;
    }

    /**
     * A new empty file named {@code prefix.N.tmp}, made with the permissions any new file gets
     * (the user's umask): a temporary file's owner-only mode stayed on every report, trace and
     * export once moved into place.
     */
    private static Path freshFile(Path dir, String prefix) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path p = dir.resolve(prefix + "." + Long.toUnsignedString(java.util.concurrent.ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
            try {
                return Files.createFile(p);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                if (attempt == 16) throw e; // a name drawn at random taken 17 times: not a chance, something else is wrong
            }
        }
    }

    /**
     * A file being replaced keeps its permissions (one the user made private stays private, the
     * umask's wider mode is for new files only). Where they cannot
     * be read or set (no POSIX permissions, another owner) the new file keeps the umask's.
     */
    private static void keepPermissions(Path old, Path tmp) {
        try {
            if (Files.isRegularFile(old)) Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(old));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // the umask's mode, as for a new file
        }
    }

    /** Names stay within the 255 bytes most file systems allow a name. */
    private static final int NAME_BYTES = 255;

    /**
     * The hidden temporary file's name before its random part: "." and the target's name, cut so the
     * whole stays within {@link #NAME_BYTES} (a target name of 238-255 bytes, writable itself, was
     * refused because its temporary file's name was too long).
     */
    static String tempPrefix(String name) {
        String p = "." + name;
        int room = NAME_BYTES - 20; // "." + up to 13 base-36 digits + ".tmp"
        while (p.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > room) {
            p = p.substring(0, p.offsetByCodePoints(p.length(), -1));
        }
        return p;
    }

    /**
     * Why the system refused, in its words: a refusal of the file system names its reason ("File
     * name too long", "No space left on device"), never the hidden temporary file it was about.
     */
    private static String why(Exception e) {
        if (e instanceof java.nio.file.FileAlreadyExistsException) return "a part of its folder is a file";
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null
                && !(e instanceof java.nio.file.AccessDeniedException) && !(e instanceof java.nio.file.NoSuchFileException)) {
            return f.getReason();
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private static BadInputException cannot(Path path, String why) {
        String shown = path.toString().isEmpty() ? "''" : path.toString();
        return new BadInputException(shown + ": error: cannot write: " + why);
    }
}
