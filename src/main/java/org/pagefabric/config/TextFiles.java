package org.pagefabric.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads a profile or spec a user names: a regular file of UTF-8 text of bounded size. A FIFO
 * or a device would block or never end, a directory cannot be read as text, and a Latin-1 file
 * decoded leniently would read with replacement characters in its names; each is refused with
 * one line instead.
 */
public final class TextFiles {
    /** The largest profile or spec read; the bundled ones are under 20 KB. */
    public static final int MAX_BYTES = 1 << 20;

    private TextFiles() {
    }

    /**
     * The text of a regular UTF-8 file of at most {@link #MAX_BYTES} bytes.
     *
     * @throws java.nio.file.NoSuchFileException if there is no such file, for the caller to word
     * @throws Unreadable if it is not a regular file, too large or not UTF-8
     * @throws IOException if reading fails
     */
    public static String read(Path path) throws IOException {
        BasicFileAttributes a = regular(path, "a YAML file");
        if (a.size() > MAX_BYTES) {
            throw new Unreadable("is " + a.size() + " bytes; a profile or spec is at most " + MAX_BYTES + " bytes");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(path)) {
            // The size may have grown since it was checked; never read more than the limit.
            bytes = in.readNBytes(MAX_BYTES + 1);
        }
        if (bytes.length > MAX_BYTES) {
            throw new Unreadable("is more than " + MAX_BYTES + " bytes; a profile or spec is at most that");
        }
        return utf8(bytes);
    }

    /**
     * The attributes of {@code path} if it is a regular file, which reading cannot block on or
     * read for ever (a trace, of any size, is read as a stream after this check).
     *
     * @param what what the user should give instead, e.g. "a trace file"
     * @throws java.nio.file.NoSuchFileException if there is no such file, for the caller to word
     * @throws Unreadable if it is a directory, a FIFO, a device or a socket
     */
    public static BasicFileAttributes regular(Path path, String what) throws IOException {
        BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class);
        if (a.isDirectory()) {
            throw new Unreadable("is a directory; give " + what);
        }
        if (!a.isRegularFile()) {
            throw new Unreadable("is not a regular file (a FIFO, device or socket); give " + what);
        }
        return a;
    }

    private static String utf8(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(in).toString();
        } catch (MalformedInputException e) {
            int at = in.position();
            throw new Unreadable("is not UTF-8 text: the byte 0x" + String.format("%02x", bytes[at] & 0xff)
                    + " at offset " + at + " is not valid UTF-8; save the file as UTF-8");
        } catch (CharacterCodingException e) {
            throw new Unreadable("is not UTF-8 text; save the file as UTF-8");
        }
    }

    /** A file that exists but cannot be read as a profile or spec; the message says why, without the path. */
    public static final class Unreadable extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Unreadable(String problem) {
            super(problem);
        }
    }
}
