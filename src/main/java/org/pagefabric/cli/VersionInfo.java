package org.pagefabric.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** Version, build commit and JVM, read from the properties Maven filters at build time. */
public final class VersionInfo implements CommandLine.IVersionProvider {
    private static final Properties PROPS = load();

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = VersionInfo.class.getResourceAsStream("/pagefabric-version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // no version resource: report "unknown" below rather than fail
        }
        return p;
    }

    private static String prop(String key) {
        String v = PROPS.getProperty(key, "unknown");
        return v.startsWith("${") ? "unknown" : v;
    }

    /** The PageFabric version. */
    public static String version() {
        return prop("version");
    }

    /** The git commit the jar was built from, with {@code -dirty} if the tree had changes. */
    public static String commit() {
        String c = prop("commit");
        return "true".equals(prop("dirty")) ? c + "-dirty" : c;
    }

    /** The running JVM. */
    public static String jvm() {
        return System.getProperty("java.vm.name") + " " + Runtime.version();
    }

    @Override
    public String[] getVersion() {
        return new String[] {"PageFabric " + version() + " (commit " + commit() + ")", "JVM: " + jvm()};
    }
}
