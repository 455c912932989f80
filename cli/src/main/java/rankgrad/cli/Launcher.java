package rankgrad.cli;

/**
 * The jar's entry point ({@code java -jar rankgrad.jar}), compiled for Java 8 while every other
 * class needs 21: on an older JVM it says in one line what to install, where the JVM would
 * otherwise print an {@code UnsupportedClassVersionError} trace naming class-file versions; on
 * Java 21 or newer it runs {@link Main}. Only Java 8 API here (this module's pom compiles this one
 * file apart, at release 8).
 */
public final class Launcher {
    /** The oldest Java the command runs on. */
    static final int REQUIRED = 21;

    private Launcher() {
    }

    public static void main(String[] args) {
        String problem = problem(System.getProperty("java.specification.version"), System.getProperty("java.home"));
        if (problem != null) {
            System.err.println(problem);
            System.exit(1);
        }
        // Main (class-file version 65) is loaded here, only once the version is known to be enough.
        Main.main(args);
    }

    /**
     * The line for a JVM of specification version {@code spec} ("1.8", "17", "25") installed at
     * {@code home}, or null when it can run rankgrad (an unrecognized version is let through: the
     * JVM then speaks for itself).
     */
    static String problem(String spec, String home) {
        int feature = feature(spec);
        if (feature < 0 || feature >= REQUIRED) {
            return null;
        }
        return "rankgrad needs Java " + REQUIRED + " or newer, and this is Java " + spec + " (" + home + "): install a JDK "
                + REQUIRED + "+ (e.g. 'apt-get install openjdk-21-jdk-headless', or Temurin " + REQUIRED
                + "+) and run the jar with its java, or use ./rankgrad, which finds one";
    }

    /** 8 for "1.8", 17 for "17"; -1 when {@code spec} is not a version number. */
    private static int feature(String spec) {
        String major = spec == null ? "" : spec.startsWith("1.") ? spec.substring(2) : spec;
        int dot = major.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? major : major.substring(0, dot));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
