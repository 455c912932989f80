package rankgrad.ltr.letor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LetorReaderCommentsTest {
    @TempDir
    Path dir;

    @Test
    void streamingWithCommentsHandsOverEachDocumentsCommentInOrder() throws IOException {
        Path p = dir.resolve("c.txt");
        Files.writeString(p, """
                2 qid:7 1:0.5 #docid = GX001 inc = 1
                # a comment-only line is not a document
                0 qid:7 2:1.5
                1 qid:8 1:3 #  docid = GX003\t
                """);
        List<String> seen = new ArrayList<>();
        LetorReader.streamWithComments(p, 2, (q, comments) -> {
            assertEquals(q.docs(), comments.size(), "one comment per document");
            seen.add(q.qid() + ":" + comments);
        });
        assertEquals(List.of("7:[docid = GX001 inc = 1, ]", "8:[docid = GX003]"), seen);
    }
}
