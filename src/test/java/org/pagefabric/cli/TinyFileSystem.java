package org.pagefabric.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A small tmpfs mounted for a test: a full disk or a read-only mount on purpose (needs root). */
final class TinyFileSystem {
    private TinyFileSystem() {
    }

    /** Mounts a tmpfs with {@code options} (e.g. {@code size=200k}) on {@code dir}; false when not allowed here. */
    static boolean mount(Path dir, String options) {
        if (!"root".equals(System.getProperty("user.name"))) {
            return false;
        }
        return exec("mount", "-t", "tmpfs", "-o", options, "tmpfs", dir.toString());
    }

    /** Unmounts what {@link #mount} mounted. */
    static void unmount(Path dir) {
        exec("umount", dir.toString());
    }

    private static boolean exec(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
