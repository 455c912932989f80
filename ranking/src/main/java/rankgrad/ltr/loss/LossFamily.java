package rankgrad.ltr.loss;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

/**
 * One row of the loss registry ({@link Losses#families()}): a family of losses by name. The
 * registry drives {@link Losses#parse}, the command line's {@code --loss} help and every loss-wide
 * test, so a new loss is one class plus one row.
 *
 * @param syntax the names as the help shows them, e.g. {@code precision@k-typeT}
 * @param pattern the lower-case names, a regular expression matched against the whole name
 * @param description one line for the help
 * @param example a name of the family: the help shows it, and every loss-wide test runs it
 * @param factory makes the loss from the matched name and a seed (for its random tie-breaks)
 * @param properties the laws the family obeys beyond the conventions of every {@link RankingLoss},
 *     which the loss-wide tests check
 */
public record LossFamily(String syntax, Pattern pattern, String description, String example, Factory factory,
        Set<Property> properties) {

    /** Makes a loss of the family from its parsed name. */
    @FunctionalInterface
    public interface Factory {
        /**
         * The loss called by the matched name; {@code name.group(i)} are the pattern's groups.
         *
         * @throws IllegalArgumentException if a parameter in the name is out of range
         */
        RankingLoss create(MatchResult name, long seed);
    }

    /** Laws beyond the conventions every loss keeps, which only some losses obey. */
    public enum Property {
        /**
         * The backward is the gradient of the value wherever no two scores of a query are equal, so
         * central differences check it. Not so for the twin-sigmoid losses (straight-through and
         * label-directed surrogates, Yu et al. Eq. 11, 20, 21) or for the annealed SHF-SDCG (s_t is
         * held constant, Wu et al. Eq. 17).
         */
        GRADIENT_OF_VALUE,
        /**
         * Value and gradient depend on the scores only through their differences within a query:
         * shifting a query's scores changes nothing, and a lone document gets no gradient. Not so
         * for REG-SHF-SDCG, whose regression term pulls scores towards the labels.
         */
        SHIFT_INVARIANT,
        /**
         * Permuting a query's documents (scores and grades together) permutes the gradient and keeps
         * the value, wherever no random tie-break is drawn. Not so for the sorting-network losses
         * (Petersen et al.): a network compares fixed wires, so its relaxation depends on the input
         * order.
         */
        PERMUTATION_EQUIVARIANT,
        /**
         * A query of m documents needs O(m) extra memory, whatever the query's size (a fixed
         * number of Sinkhorn iterations counting as a constant). Not so for the sorting-network
         * losses: they keep O(1) numbers per comparator, m (m - 1) / 2 comparators for odd-even and
         * O(m log^2 m) for bitonic, never an m x m matrix.
         */
        LINEAR_MEMORY
    }

    public LossFamily {
        Objects.requireNonNull(syntax, "syntax");
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(example, "example");
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(properties, "properties");
        properties = properties.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(properties));
        if (!pattern.matcher(example).matches()) {
            throw new IllegalArgumentException("the example '" + example + "' of loss family " + syntax
                    + " does not match its pattern " + pattern);
        }
    }

    /** A family that obeys every {@link Property}; see {@link #without}. */
    public static LossFamily of(String syntax, String regex, String description, String example, Factory factory) {
        return new LossFamily(syntax, Pattern.compile(regex), description, example, factory,
                EnumSet.allOf(Property.class));
    }

    /** The same family without {@code property}. */
    public LossFamily without(Property property) {
        EnumSet<Property> kept = EnumSet.allOf(Property.class);
        kept.retainAll(properties);
        kept.remove(property);
        return new LossFamily(syntax, pattern, description, example, factory, kept);
    }

    /** Whether the family obeys {@code property}. */
    public boolean has(Property property) {
        return properties.contains(property);
    }

    /** The loss of this family called {@code name} (lower case), or null if the name is not of this family. */
    RankingLoss parse(String name, long seed) {
        var m = pattern.matcher(name);
        return m.matches() ? factory.create(m.toMatchResult(), seed) : null;
    }

    /** The help line: syntax, description and example. */
    @Override
    public String toString() {
        return syntax + ": " + description + " (e.g. " + example + ")";
    }
}
