/** Reproductions of the papers' experiments that need no data set (Yu et al. 2020, Tables 2 and 3). */
package rankgrad.ltr.repro;
