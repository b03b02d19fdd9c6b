package io.barrierscope.ptx;

/**
 * Performance-tuning and cluster directives of an entry (PTX ISA 11.4, 11.5). Arrays are
 * {x, y, z} or null when the directive is absent.
 */
public record Directives(int[] maxntid, int[] reqntid, int[] reqnctapercluster, int[] clusterDim,
                         boolean explicitCluster, int maxnreg, int minnctapersm, int maxclusterrank,
                         boolean noreturn) {
    public static final Directives NONE = new Directives(null, null, null, null, false, 0, 0, 0, false);
}
