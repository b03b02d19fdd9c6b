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
            return decode(file.toString(), Files.readAllBytes(file));
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
