package rankgrad.solr;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.Explanation;
import org.apache.solr.core.SolrResourceLoader;
import org.apache.solr.ltr.feature.Feature;
import org.apache.solr.ltr.model.AdapterModel;
import org.apache.solr.ltr.model.ModelException;
import org.apache.solr.ltr.norm.IdentityNormalizer;
import org.apache.solr.ltr.norm.Normalizer;
import rankgrad.ltr.io.Json;
import rankgrad.ltr.model.Ensemble;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.Scorer;

/**
 * A Solr LTR model that scores with a rankgrad model file through rankgrad's own {@link Scorer}:
 * for a document with Solr feature values v_1..v_m, the score is {@code s = f(normalize(transform(x)))}
 * with x the raw feature row holding v_i at the i-th feature the model reads (feature ids in
 * increasing order), exactly as {@code rankgrad predict} scores that row (docs/serving.md). So it
 * serves what Solr's own {@code NeuralNetworkModel} cannot express: ensembles (the mean of the
 * members' scores), the signed log1p transform, batch normalization as trained (unfolded) and any
 * per-document network, with the library's float32 arithmetic rather than a re-implementation.
 *
 * <p>The model JSON names the rankgrad file, a resource of the collection's configuration (the
 * {@code conf/} folder, or the config set in ZooKeeper), and lists one Solr feature per feature the
 * rankgrad model reads, in feature-id order, without Solr normalizers (the file carries its own):
 *
 * <pre>{@code
 * {"class": "rankgrad.solr.RankgradModel", "name": "ranker",
 *  "features": [{"name": "f1"}, {"name": "f2"}, ...],
 *  "params": {"modelFile": "model.json"}}
 * }</pre>
 *
 * <p>Refused when the model store loads it, with the reason: query-level z-score normalization and
 * {@code attn} networks, whose scores depend on the other documents of the query (Solr scores each
 * document alone), a feature list of another length than the model reads, and Solr normalizers.
 * The scorer is immutable and thread-safe, so Solr's request threads share it.
 */
public class RankgradModel extends AdapterModel {
    private String modelFile;
    private Scorer scorer;
    private String description;

    /** Called by Solr's model store, which then sets {@code params} through the setters and validates. */
    public RankgradModel(String name, List<Feature> features, List<Normalizer> norms, String featureStoreName,
            List<Feature> allFeatures, Map<String, Object> params) {
        super(name, features, norms, featureStoreName, allFeatures, params);
    }

    /** The {@code modelFile} param: the rankgrad model file, a resource of the collection's configuration. */
    public void setModelFile(String modelFile) {
        this.modelFile = modelFile;
    }

    @Override
    protected void validate() throws ModelException {
        super.validate();
        if (modelFile == null || modelFile.isBlank()) {
            throw new ModelException("model " + name + ": no \"modelFile\" in params (the rankgrad model file, a resource"
                    + " of the collection's configuration)");
        }
        for (int i = 0; i < norms.size(); i++) {
            if (!(norms.get(i) instanceof IdentityNormalizer)) {
                throw new ModelException("model " + name + ": feature " + features.get(i).getName() + " has a Solr"
                        + " normalizer, but the rankgrad model file normalizes its raw features itself; remove \"norm\"");
            }
        }
    }

    /** Reads the model file from the configuration, checks that Solr can serve it and keeps its scorer. */
    @Override
    public void init(SolrResourceLoader loader) throws ModelException {
        super.init(loader);
        Ensemble ensemble;
        try (InputStream in = loader.openResource(modelFile)) {
            Object root = Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            if (!(root instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException("the top level is not a JSON object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> values = (Map<String, Object>) map;
            ensemble = ModelFile.ensembleFromMap(values);
        } catch (IOException e) {
            throw new ModelException("model " + name + ": cannot read " + modelFile + " from the configuration: "
                    + e.getMessage(), e);
        } catch (IllegalArgumentException | ClassCastException e) {
            throw new ModelException("model " + name + ": " + modelFile + " is not a valid rankgrad model file: "
                    + e.getMessage(), e);
        }
        String refusal = SolrServable.refusal(ensemble);
        if (refusal != null) {
            throw new ModelException("model " + name + ": " + modelFile + " cannot be served by Solr: " + refusal);
        }
        Scorer s = ensemble.scorer();
        int[] ids = s.inputs().ids();
        if (ids.length != features.size()) {
            throw new ModelException("model " + name + ": it lists " + features.size() + " Solr features but " + modelFile
                    + " reads " + ids.length + " (features " + Arrays.toString(ids) + "); list one Solr feature per"
                    + " rankgrad feature, in feature-id order");
        }
        scorer = s;
        description = modelFile + ": " + SolrServable.describe(ensemble);
    }

    /**
     * The score of one document: its feature values (in the order of the model's feature list)
     * placed at the model's feature ids of a raw row, scored by rankgrad's scorer.
     */
    @Override
    public float score(float[] modelFeatureValues) {
        int[] ids = scorer.inputs().ids();
        float[] row = new float[scorer.features()];
        for (int i = 0; i < ids.length; i++) {
            row[ids[i] - 1] = modelFeatureValues[i];
        }
        return scorer.score(row, 1)[0];
    }

    @Override
    public Explanation explain(LeafReaderContext context, int doc, float finalScore, List<Explanation> featureExplanations) {
        return Explanation.match(finalScore, toString() + " (" + description + ")", featureExplanations);
    }
}
