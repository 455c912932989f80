package rankgrad.ltr.train;

import java.io.IOException;
import java.nio.file.Path;

/** Another run holds a folder's {@link RunLock}. */
public final class FolderLockedException extends IOException {
    private final Path folder;

    FolderLockedException(Path folder, String pid) {
        super("another rankgrad run is using " + folder + (pid == null ? "" : " (process " + pid + ")")
                + "; wait for it to finish or write to another folder");
        this.folder = folder;
    }

    FolderLockedException(Path folder, Path locked, String pid) {
        super("another rankgrad run is using " + locked + (pid == null ? "" : " (process " + pid + ")") + ", and " + folder
                + " is inside it; wait for that run to finish or write outside its folder");
        this.folder = locked;
    }

    /** The locked folder. */
    public Path folder() {
        return folder;
    }
}
