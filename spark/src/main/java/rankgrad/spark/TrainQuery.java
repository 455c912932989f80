package rankgrad.spark;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import rankgrad.ltr.data.Query;

/**
 * A training query as the distributed trainer keeps it: its global index (its place in the
 * training input, 0-based and dense: the index the epochs shuffle), its features already
 * normalized with the model's normalization, and a digest of its raw content for the run's
 * fingerprint.
 *
 * @param index the query's place in the training input
 * @param qid the query id
 * @param width features per document
 * @param x normalized features, docs x width, row-major
 * @param labels one grade per document
 * @param digest the first 64 bits of SHA-256 over the raw query (qid, labels, features)
 */
record TrainQuery(int index, String qid, int width, float[] x, float[] labels, long digest) implements Serializable {

    Query query() {
        return new Query(qid, width, x, labels);
    }

    /** The first 64 bits of SHA-256 over qid, document count, labels and raw features. */
    static long digest(String qid, float[] labels, float[] rawX) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
        ByteBuffer buf = ByteBuffer.allocate(8 + 4 * (labels.length + rawX.length)).order(ByteOrder.LITTLE_ENDIAN);
        byte[] id = qid.getBytes(StandardCharsets.UTF_8);
        buf.putInt(id.length).putInt(labels.length);
        for (float l : labels) {
            buf.putInt(Float.floatToIntBits(l));
        }
        for (float v : rawX) {
            buf.putInt(Float.floatToIntBits(v));
        }
        sha.update(id);
        sha.update(buf.flip());
        return ByteBuffer.wrap(sha.digest()).getLong();
    }
}
