/**
 * Data files: LETOR/SVMlight and LibSVM-with-groups readers (plain, gzip, bzip2, xz, zstd, zip) and
 * the writer, with every malformed line refused by file, line and problem.
 */
module rankgrad.letor {
    requires transitive rankgrad.serving;

    exports rankgrad.ltr.letor;
}
