package rankgrad.cli;

import picocli.CommandLine;

/** The version line of {@code rankgrad --version}, from the jar's manifest. */
final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[] {"rankgrad " + (v == null ? "(development build)" : v) + ", Java " + Runtime.version()};
    }
}
