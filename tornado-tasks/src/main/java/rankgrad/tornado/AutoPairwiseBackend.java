package rankgrad.tornado;

/**
 * The {@code auto} backend: a batch goes to the TornadoVM device when that device is a GPU or an
 * accelerator and the batch has at least {@code -Drankgrad.tornado.minPairs} pair terms ({@link
 * OffloadPolicy#auto()}), otherwise to the CPU backend; the choice depends on sizes only, so runs
 * stay reproducible. Without TornadoVM (or its module) {@code auto} is the CPU backend.
 */
public final class AutoPairwiseBackend extends TornadoPairwiseBackend {
    /** Used by {@link java.util.ServiceLoader}. */
    public AutoPairwiseBackend() {
        super(OffloadPolicy.auto(), () -> DeviceSession.open(false));
    }
}
