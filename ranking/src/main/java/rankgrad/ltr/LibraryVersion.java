package rankgrad.ltr;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The library version, as Maven wrote it into {@code version.properties} at build time. */
public final class LibraryVersion {
    private static final String VERSION = load();

    private LibraryVersion() {
    }

    /** e.g. "0.2.0". */
    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = LibraryVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties is missing from the rankgrad-ltr jar");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
