package rankgrad.ltr.letor;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Bytes of a file shown in a one-line error message: valid UTF-8 as its characters, control and
 * invisible characters (a byte-order mark, a NUL) as {@code \}{@code uXXXX}, bytes that are not
 * UTF-8 as {@code \xNN}, and at most {@link #MAX_CHARS} characters, so that a message never echoes
 * raw binary data or breaks the line.
 */
final class Printable {
    /** The longest excerpt a message shows. */
    static final int MAX_CHARS = 40;

    private Printable() {
    }

    /** {@code b[from, to)} made printable. */
    static String of(byte[] b, int from, int to) {
        int cut = Math.min(to, from + 4 * MAX_CHARS);
        while (cut < to && cut > from && (b[cut] & 0xc0) == 0x80) {
            cut--;
        }
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        String text = strictUtf8(b, from, cut);
        if (text == null) {
            for (int i = from; i < to && shown < MAX_CHARS; i++, shown++) {
                int c = b[i] & 0xff;
                if (c >= 0x20 && c < 0x7f && c != '\\') {
                    sb.append((char) c);
                } else {
                    sb.append(String.format("\\x%02x", c));
                }
            }
            return shown < to - from ? sb.append("...").toString() : sb.toString();
        }
        int[] cps = text.codePoints().toArray();
        for (; shown < cps.length && shown < MAX_CHARS; shown++) {
            int cp = cps[shown];
            if (visible(cp)) {
                sb.appendCodePoint(cp);
            } else {
                sb.append(String.format("\\u%04x", cp));
            }
        }
        return shown < cps.length || cut < to ? sb.append("...").toString() : sb.toString();
    }

    /**
     * A hint for a token that holds a non-ASCII digit (such as U+0663, ARABIC-INDIC DIGIT THREE),
     * which LETOR numbers never use: {@code " (U+0663 is not an ASCII digit)"}, or "" when there is none.
     */
    static String nonAsciiDigitHint(byte[] b, int from, int to) {
        String text = strictUtf8(b, from, to);
        if (text == null) {
            return "";
        }
        return text.codePoints().filter(cp -> cp > 0x7f && Character.isDigit(cp)).findFirst()
                .stream().mapToObj(cp -> String.format(" (U+%04X is not an ASCII digit 0-9)", cp)).findFirst().orElse("");
    }

    /** {@code b[from, to)} decoded as UTF-8, or null when the bytes are not UTF-8. */
    static String strictUtf8(byte[] b, int from, int to) {
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b, from, to - from));
            return chars.toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static boolean visible(int cp) {
        int type = Character.getType(cp);
        return cp != '\\' && !Character.isISOControl(cp) && type != Character.FORMAT && type != Character.UNASSIGNED
                && type != Character.SURROGATE && type != Character.PRIVATE_USE && type != Character.LINE_SEPARATOR
                && type != Character.PARAGRAPH_SEPARATOR;
    }
}
