package rankgrad.ltr.letor;

/**
 * What the first bytes of a data file say it is. Only {@link #TEXT} (UTF-8 or ASCII, with or
 * without a byte-order mark) and {@link #GZIP} are read; every other kind is named in the error,
 * with what to do about it.
 */
enum FileKind {
    TEXT("text", ""),
    GZIP("gzip-compressed twice", "decompress it once (gunzip)"),
    ZIP("a zip archive", "unzip it (rankgrad reads plain or gzip-compressed text)"),
    BZIP2("bzip2-compressed", "decompress it (bunzip2) or recompress it with gzip, which rankgrad reads as it is"),
    XZ("xz-compressed", "decompress it (unxz) or recompress it with gzip, which rankgrad reads as it is"),
    ZSTD("zstd-compressed", "decompress it (unzstd) or recompress it with gzip, which rankgrad reads as it is"),
    SEVEN_ZIP("a 7-Zip archive", "extract it (7z x); rankgrad reads plain or gzip-compressed text"),
    UTF16("UTF-16 text", "convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)"),
    UTF32("UTF-32 text", "convert it to UTF-8 (iconv -f UTF-32 -t UTF-8)"),
    BINARY("binary data", "rankgrad reads LETOR / SVMlight text, plain or gzip-compressed");

    /** How many leading bytes {@link #of} looks at. */
    static final int SNIFF_BYTES = 4096;

    /**
     * Control bytes (other than tab, line feed, carriage return, form feed, vertical tab) that make
     * the sniffed bytes binary: a share above this. A text file with a few stray control bytes is
     * still read, and its bad lines are reported one by one.
     */
    private static final double BINARY_CONTROL_SHARE = 0.05;

    private final String what;
    private final String advice;

    FileKind(String what, String advice) {
        this.what = what;
        this.advice = advice;
    }

    /**
     * Why a file of this kind is not read and what to do, for an error message; {@code insideGzip}
     * when it was found by decompressing gzip ({@link #GZIP} itself then means gzip twice).
     */
    String problem(boolean insideGzip) {
        return what + (insideGzip && this != GZIP ? " inside gzip" : "") + "; " + advice;
    }

    /** Whether the bytes start with the UTF-8 byte-order mark EF BB BF. */
    static boolean hasUtf8Bom(byte[] b, int n) {
        return n >= 3 && (b[0] & 0xff) == 0xef && (b[1] & 0xff) == 0xbb && (b[2] & 0xff) == 0xbf;
    }

    /** The kind of a file whose first {@code n} bytes are {@code b[0, n)}. */
    static FileKind of(byte[] b, int n) {
        if (starts(b, n, 0x1f, 0x8b)) {
            return GZIP;
        }
        if (starts(b, n, 'P', 'K', 3, 4) || starts(b, n, 'P', 'K', 5, 6)) {
            return ZIP;
        }
        if (starts(b, n, 'B', 'Z', 'h')) {
            return BZIP2;
        }
        if (starts(b, n, 0xfd, '7', 'z', 'X', 'Z', 0)) {
            return XZ;
        }
        if (starts(b, n, 0x28, 0xb5, 0x2f, 0xfd)) {
            return ZSTD;
        }
        if (starts(b, n, '7', 'z', 0xbc, 0xaf, 0x27, 0x1c)) {
            return SEVEN_ZIP;
        }
        if (starts(b, n, 0xff, 0xfe, 0, 0) || starts(b, n, 0, 0, 0xfe, 0xff)) {
            return UTF32;
        }
        if (starts(b, n, 0xff, 0xfe) || starts(b, n, 0xfe, 0xff)) {
            return UTF16;
        }
        int nulEven = 0;
        int nulOdd = 0;
        int control = 0;
        for (int i = 0; i < n; i++) {
            int c = b[i] & 0xff;
            if (c == 0) {
                if ((i & 1) == 0) {
                    nulEven++;
                } else {
                    nulOdd++;
                }
            } else if ((c < 0x20 && (c < 0x09 || c > 0x0d)) || c == 0x7f) {
                control++;
            }
        }
        int pairs = n / 2;
        // ASCII text in UTF-16 has a zero in every other byte (odd bytes little-endian, even ones big-endian).
        if (pairs > 0 && (nulOdd > 0.4 * pairs && nulEven < 0.05 * pairs || nulEven > 0.4 * pairs && nulOdd < 0.05 * pairs)) {
            return UTF16;
        }
        if (nulEven + nulOdd + control > BINARY_CONTROL_SHARE * n) {
            return BINARY;
        }
        return TEXT;
    }

    private static boolean starts(byte[] b, int n, int... magic) {
        if (n < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if ((b[i] & 0xff) != magic[i]) {
                return false;
            }
        }
        return true;
    }
}
