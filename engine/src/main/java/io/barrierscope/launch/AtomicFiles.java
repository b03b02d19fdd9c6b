package io.barrierscope.launch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Writes a file so that readers see the old contents or the new, never half a file. */
public final class AtomicFiles {
    private AtomicFiles() {}

    public static void write(Path path, byte[]... parts) throws IOException {
        Path abs = path.toAbsolutePath();
        Path dir = abs.getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + abs.getFileName(), ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                for (byte[] p : parts) {
                    ByteBuffer b = ByteBuffer.wrap(p);
                    while (b.hasRemaining()) ch.write(b);
                }
                ch.force(true);
            }
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
