package rankgrad.simd;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects the messages of logger {@code rankgrad.autodiff} (System.Logger goes to java.util.logging)
 * at every level down to FINE, System.Logger's DEBUG: kernel selection is logged there, below the
 * default INFO threshold, so the logger's level is lowered while capturing and restored on close.
 * Each message is prefixed with its level ("FINE: ..."), so a test also pins the level.
 */
final class LogCapture extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger("rankgrad.autodiff");
    private final Level previous = logger.getLevel();
    private final List<String> messages = new CopyOnWriteArrayList<>();

    LogCapture() {
        logger.setLevel(Level.FINE);
        logger.addHandler(this);
    }

    List<String> messages() {
        return List.copyOf(messages);
    }

    @Override
    public void publish(LogRecord rec) {
        messages.add(rec.getLevel() + ": " + rec.getMessage());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setLevel(previous);
    }
}
