package rankgrad.autodiff;

/**
 * Counts the code lines of Java source: lines holding at least one character that is neither
 * whitespace nor part of a comment. Blank lines, {@code //} lines, and the lines of block comments
 * and Javadoc are not counted; a line with code and a trailing comment is. A small lexer, not a
 * line-prefix test, so that a block comment opened after code, or comment markers and quotes
 * inside string, character and text-block literals, are read as the compiler reads them.
 */
final class JavaCodeLines {
    private JavaCodeLines() {
    }

    private enum State { CODE, LINE_COMMENT, BLOCK_COMMENT, STRING, CHAR, TEXT_BLOCK }

    /** The number of code lines of {@code source}. */
    static int count(String source) {
        State state = State.CODE;
        int lines = 0;
        boolean code = false;
        for (int i = 0; i < source.length(); i++) {
            char ch = source.charAt(i);
            if (ch == '\n') {
                lines += code ? 1 : 0;
                code = false;
                if (state == State.LINE_COMMENT) {
                    state = State.CODE;
                }
                continue;
            }
            switch (state) {
                case CODE -> {
                    if (source.startsWith("//", i)) {
                        state = State.LINE_COMMENT;
                    } else if (source.startsWith("/*", i)) {
                        state = State.BLOCK_COMMENT;
                        i++;
                    } else if (!Character.isWhitespace(ch)) {
                        code = true;
                        if (source.startsWith("\"\"\"", i)) {
                            state = State.TEXT_BLOCK;
                            i += 2;
                        } else if (ch == '"') {
                            state = State.STRING;
                        } else if (ch == '\'') {
                            state = State.CHAR;
                        }
                    }
                }
                case BLOCK_COMMENT -> {
                    if (source.startsWith("*/", i)) {
                        state = State.CODE;
                        i++;
                    }
                }
                case STRING, CHAR, TEXT_BLOCK -> {
                    code |= !Character.isWhitespace(ch);
                    if (ch == '\\' && i + 1 < source.length() && source.charAt(i + 1) != '\n') {
                        i++; // an escape: the next character does not end the literal
                    } else if (state == State.TEXT_BLOCK && source.startsWith("\"\"\"", i)) {
                        state = State.CODE;
                        i += 2;
                    } else if (state != State.TEXT_BLOCK && ch == (state == State.STRING ? '"' : '\'')) {
                        state = State.CODE;
                    }
                }
                default -> {
                    // a line comment: skipped up to the newline, which is handled above
                }
            }
        }
        return lines + (code ? 1 : 0);
    }
}
