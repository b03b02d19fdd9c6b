package io.barrierscope.launch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads text files users give (launch files, PTX) as strict UTF-8: a byte that is no UTF-8 is
 * refused at its line and column, never replaced and never reported as the JDK's bare
 * "Input length = 1".
 */
public final class Utf8Text {
    private Utf8Text() {}

    /** The first bytes of a trace file (trace/TraceFile's magic). */
    private static final byte[] TRACE_MAGIC = {(byte) 0x89, 'B', 'S', 'T', 'R', '\r', '\n', 0x1A};

    /** The file's text; a missing, unreadable, over-large or non-UTF-8 file is a located {@link BadInputException}. */
    public static String read(Path file, String kind, long maxBytes) {
        try {
            if (file.toString().isEmpty()) throw new BadInputException("error: the " + kind + "'s name is empty"); // not the current folder
            if (Files.isDirectory(file)) throw new BadInputException(file + ": error: the " + kind + " is a directory, not a file");
            if (!Files.exists(file)) throw new BadInputException(file + ": error: no such " + kind);
            if (!Files.isRegularFile(file)) {
                throw new BadInputException(file + ": error: the " + kind + " is not a regular file (a device or pipe is not read)");
            }
            if (Files.size(file) > maxBytes) {
                throw new BadInputException(file + ": error: " + kind + " larger than " + (maxBytes >> 20) + " MiB");
            }
            byte[] bytes = Files.readAllBytes(file);
            // A trace where text is read (run t.bstrace, check t.bstrace) was "not UTF-8 text: byte 0x89 ... (save the file as UTF-8)".
            if (bytes.length >= TRACE_MAGIC.length && java.util.Arrays.equals(java.util.Arrays.copyOf(bytes, TRACE_MAGIC.length), TRACE_MAGIC)) {
                throw new BadInputException(file + ": error: this is a BarrierScope trace, not a " + kind
                        + ": open it with `barrierscope gui`, or give it to `export` or `diff`");
            }
            return decode(file.toString(), bytes);
        } catch (IOException e) {
            throw new BadInputException(file + ": error: cannot read the " + kind + ": " + e.getMessage());
        }
    }

    /** Decodes bytes that claim to be UTF-8 text from {@code name}; the first invalid byte is located. */
    public static String decode(String name, byte[] bytes) {
        CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 16, (long) bytes.length + 1));
        CoderResult r = dec.decode(in, out, true);
        if (r.isError()) {
            int at = in.position();
            int line = 1;
            int col = 1;
            // Column in characters of the line's valid prefix, as editors count it.
            for (int i = 0; i < out.position(); i++) {
                char c = out.get(i);
                if (c == '\n') {
                    line++;
                    col = 1;
                } else if (!Character.isLowSurrogate(c)) {
                    col++;
                }
            }
            throw new BadInputException(name + ":" + line + ":" + col + ": error: not UTF-8 text: byte 0x"
                    + String.format("%02X", bytes[at] & 0xFF) + " at offset " + at + " is no valid UTF-8 (save the file as UTF-8)");
        }
        try {
            dec.flush(out);
        } catch (RuntimeException e) {
            // flush after a complete decode cannot fail; nothing more to add
        }
        out.flip();
        return out.toString();
    }
}
