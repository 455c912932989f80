package rankgrad.tornado;

/**
 * The JUnit tag of the tests that need no TornadoVM SDK and no device: they run in a plain JDK
 * with TornadoVM's API jar at most (its array types and {@code @Parallel} work as plain Java).
 * {@code -Ptornado-api} (CI) runs exactly these; {@code -Ptornado} runs them with all the others.
 */
final class DeviceFree {
    /** The tag's name, as the tornado-api profile's surefire {@code groups} names it. */
    static final String TAG = "device-free";

    private DeviceFree() {
    }
}
