package org.pagefabric.record;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Finding programs on the PATH and telling a statically linked ELF program from a dynamic one. */
final class Executables {
    private static final int PT_INTERP = 3;

    private Executables() {
    }

    /** The path of {@code name} (a path itself if it contains a slash), or {@code null} if not found. */
    static String find(String name) {
        if (name.contains("/")) {
            Path p = Path.of(name);
            return Files.isRegularFile(p) && Files.isExecutable(p) ? p.toString() : null;
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(":")) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    /**
     * Whether {@code file} is a 64-bit little-endian ELF executable without a program interpreter:
     * statically linked, so the dynamic loader never runs in it and LD_PRELOAD has no effect.
     */
    static boolean isStaticElf(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer h = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
            if (ch.read(h, 0) < 64 || h.getInt(0) != 0x464c457f || h.get(4) != 2 || h.get(5) != 1) {
                return false;
            }
            long phoff = h.getLong(32);
            int phentsize = Short.toUnsignedInt(h.getShort(54));
            int phnum = Short.toUnsignedInt(h.getShort(56));
            ByteBuffer ph = ByteBuffer.allocate(phentsize * phnum).order(ByteOrder.LITTLE_ENDIAN);
            ch.read(ph, phoff);
            for (int i = 0; i < phnum; i++) {
                if (ph.getInt(i * phentsize) == PT_INTERP) {
                    return false;
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
