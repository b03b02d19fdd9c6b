package io.barrierscope.exec;

/**
 * The restricted thread fences of PTX ISA 9.7.13.4, checked as the ISA writes them: the operation
 * fence is only {@code fence.op_restrict.release.cluster} ({@code .op_restrict = { .mbarrier_init }}),
 * and "When .sync_restrict is .sync_restrict::shared::cta, .sem must be .release ... when
 * .sync_restrict is .sync_restrict::shared::cluster, .sem must be .acquire ... When either ... is
 * present, the .scope must be specified as .cluster."
 */
final class FenceForms {
    private FenceForms() {}

    static void check(CompileContext c) {
        String mn = c.insn().mnemonic();
        boolean otherScope = c.has(".cta") || c.has(".gpu") || c.has(".sys");
        if (c.has(".mbarrier_init")) {
            if (!c.has(".release") || c.has(".acquire") || c.has(".acq_rel") || c.has(".sc") || otherScope || !c.has(".cluster")) {
                throw c.error(mn + ": the operation fence is written fence.mbarrier_init.release.cluster only (PTX ISA 9.7.13.4: "
                        + "\"fence.op_restrict.release.cluster\")");
            }
            return;
        }
        boolean cta = c.has(".sync_restrict::shared::cta");
        boolean cluster = c.has(".sync_restrict::shared::cluster");
        if (!cta && !cluster) return;
        String sem = cta ? ".release" : ".acquire";
        boolean semOk = c.has(sem) && !c.has(cta ? ".acquire" : ".release") && !c.has(".acq_rel") && !c.has(".sc");
        if (!semOk) {
            throw c.error(mn + ": with " + (cta ? ".sync_restrict::shared::cta" : ".sync_restrict::shared::cluster") + ", .sem must be "
                    + sem + " (PTX ISA 9.7.13.4)");
        }
        if (otherScope || !c.has(".cluster")) {
            throw c.error(mn + ": with .sync_restrict, the .scope must be specified as .cluster (PTX ISA 9.7.13.4)");
        }
    }
}
