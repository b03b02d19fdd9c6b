package io.barrierscope.exec;

import io.barrierscope.ptx.ScalarType;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The modifiers each opcode accepts, so a misspelt one ({@code mbarrier.ival}) is an error at
 * load rather than silently ignored.
 */
final class Modifiers {
    private Modifiers() {}

    private static final Set<String> SPACES = Set.of(".global", ".shared", ".shared::cta", ".shared::cluster", ".local",
            ".const", ".param", ".param::entry", ".param::func");
    private static final Set<String> ORDER = Set.of(".weak", ".volatile", ".relaxed", ".acquire", ".release", ".acq_rel",
            ".sc", ".mmio", ".cta", ".cluster", ".gpu", ".sys");
    private static final Set<String> ROUND = Set.of(".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi", ".rna",
            ".rs", ".ftz", ".sat", ".approx", ".full", ".relu", ".NaN", ".xorsign", ".abs", ".noftz", ".satfinite");

    private static final Map<String, Set<String>> OWN = new HashMap<>();

    private static void own(String opc, String... mods) { OWN.put(opc, Set.of(mods)); }

    static {
        own("add", ".cc"); own("sub", ".cc"); own("addc", ".cc"); own("subc", ".cc");
        own("mul", ".lo", ".hi", ".wide"); own("mad", ".lo", ".hi", ".wide", ".cc"); own("madc", ".lo", ".hi", ".cc"); own("dp4a"); own("dp2a", ".lo", ".hi"); own("sad"); own("mul24", ".lo", ".hi");
        own("mad24", ".lo", ".hi"); own("div"); own("rem"); own("abs"); own("neg"); own("min"); own("max");
        own("and"); own("or"); own("xor"); own("not"); own("cnot"); own("shl"); own("shr"); own("popc"); own("clz");
        own("brev"); own("bfind", ".shiftamt"); own("bfe"); own("bfi");
        own("prmt", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"); own("shf", ".l", ".r", ".clamp", ".wrap");
        own("lop3"); own("szext", ".clamp", ".wrap"); own("bmsk", ".clamp", ".wrap"); own("fns");
        own("fma", ".oob"); own("rcp"); own("sqrt"); own("rsqrt"); own("sin"); own("cos"); own("tanh"); own("lg2"); own("ex2");
        own("copysign"); own("testp", ".finite", ".infinite", ".number", ".notanumber", ".normal", ".subnormal");
        own("setp", ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs", ".equ", ".neu", ".ltu", ".leu",
                ".gtu", ".geu", ".num", ".nan", ".and", ".or", ".xor");
        own("set", ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs", ".equ", ".neu", ".ltu", ".leu",
                ".gtu", ".geu", ".num", ".nan", ".and", ".or", ".xor");
        own("selp"); own("slct"); own("mov"); own("cvt", ".e4m3x2", ".e5m2x2", ".e4m3x4", ".e5m2x4", ".e2m3x4", ".e3m2x4", ".e2m1x4"); own("cvta", ".to"); own("isspacep");
        own("ld", ".nc", ".ca", ".cg", ".cs", ".lu", ".cv", ".v2", ".v4", ".v8", ".unified");
        own("ldu", ".v2", ".v4"); own("st", ".wb", ".cg", ".cs", ".wt", ".v2", ".v4", ".v8", ".async", ".mbarrier::complete_tx::bytes");
        Set<String> atomOps = Set.of(".add", ".min", ".max", ".inc", ".dec", ".and", ".or", ".xor", ".exch", ".cas",
                ".v2", ".v4", ".v8", ".async", ".mbarrier::complete_tx::bytes");
        OWN.put("atom", atomOps); OWN.put("red", atomOps);
        own("bra", ".uni"); own("call", ".uni"); own("ret", ".uni"); own("exit"); own("trap"); own("brkpt");
        own("nanosleep"); own("membar", ".gl", ".proxy", ".alias", ".async");
        own("fence", ".proxy", ".async", ".async::generic", ".alias", ".mbarrier_init", ".tensormap::generic", ".op_restrict",
                ".sync_restrict::shared::cta", ".sync_restrict::shared::cluster", ".bulk_group");
        own("bar", ".sync", ".arrive", ".red", ".popc", ".and", ".or", ".aligned", ".warp");
        own("barrier", ".sync", ".arrive", ".red", ".popc", ".and", ".or", ".aligned", ".wait");
        own("shfl", ".sync", ".up", ".down", ".bfly", ".idx"); own("vote", ".sync", ".all", ".any", ".uni", ".ballot");
        own("match", ".sync", ".any", ".all"); own("redux", ".sync", ".add", ".min", ".max", ".and", ".or", ".xor");
        own("elect", ".sync"); own("activemask");
        own("prefetch", ".L1", ".L2", ".tensormap", ".L2::evict_last", ".L2::evict_normal");
        own("prefetchu", ".L1"); own("griddepcontrol", ".launch_dependents", ".wait");
        own("setmaxnreg", ".inc", ".dec", ".sync", ".aligned"); own("wgmma", ".fence", ".sync", ".aligned", ".mma_async", ".commit_group", ".wait_group", ".satfinite", ".e4m3", ".e5m2", ".sp", ".and", ".xor", ".popc", ".b1");
        own("pmevent", ".mask");
        own("mma", ".sync", ".aligned", ".row", ".col", ".satfinite", ".e4m3", ".e5m2", ".sp", ".sp::ordered_metadata");
        own("wmma", ".load", ".store", ".mma", ".a", ".b", ".c", ".d", ".sync", ".aligned", ".row", ".col", ".satfinite");
        own("ldmatrix", ".sync", ".aligned", ".m8n8", ".m16n16", ".m8n16", ".x1", ".x2", ".x4", ".trans");
        own("stmatrix", ".sync", ".aligned", ".m8n8", ".m16n8", ".x1", ".x2", ".x4", ".trans");
        own("movmatrix", ".sync", ".aligned", ".m8n8", ".trans");
        own("mapa"); own("getctarank"); own("createpolicy", ".fractional", ".range", ".cvt", ".L2");
        // Textures and surfaces (9.7.10, 9.7.11): every modifier of the ISA's forms, so TexOp/SurfaceOp/TextureQueryOp refuse the
        // ones they do not model by name and a misspelt one is still an error.
        own("tex", ".1d", ".2d", ".3d", ".a1d", ".a2d", ".cube", ".acube", ".2dms", ".a2dms", ".v2", ".v4", ".base", ".level", ".grad", ".f16x2");
        own("tld4", ".r", ".g", ".b", ".a", ".2d", ".a2d", ".cube", ".acube", ".v4");
        own("suld", ".b", ".p", ".1d", ".2d", ".3d", ".a1d", ".a2d", ".v2", ".v4", ".trap", ".clamp", ".zero", ".ca", ".cg", ".cs", ".cv");
        own("sust", ".b", ".p", ".1d", ".2d", ".3d", ".a1d", ".a2d", ".v2", ".v4", ".trap", ".clamp", ".zero", ".wb", ".cg", ".cs", ".wt");
        own("sured", ".b", ".p", ".add", ".min", ".max", ".and", ".or", ".1d", ".2d", ".3d", ".trap", ".clamp", ".zero");
        own("txq", ".level", ".width", ".height", ".depth", ".channel_data_type", ".channel_order", ".normalized_coords",
                ".array_size", ".num_mipmap_levels", ".num_samples", ".force_unnormalized_coords", ".filter_mode", ".addr_mode_0",
                ".addr_mode_1", ".addr_mode_2");
        own("suq", ".width", ".height", ".depth", ".channel_data_type", ".channel_order", ".array_size", ".memory_layout");
        own("mbarrier", ".init", ".inval", ".arrive", ".arrive_drop", ".expect_tx", ".complete_tx", ".test_wait",
                ".try_wait", ".parity", ".pending_count", ".noComplete");
    }

    /**
     * The vector sizes ({@code .v2}, {@code .v4}, {@code .v8}) an instruction names when it names more
     * than one ({@code ld.global.v2.v4.u32} was run as .v2), else null.
     */
    static String vectorSizes(java.util.List<String> mods) {
        java.util.List<String> v = new java.util.ArrayList<>();
        for (String m : mods) if (m.equals(".v2") || m.equals(".v4") || m.equals(".v8")) v.add(m);
        return v.size() > 1 ? String.join(", ", v) : null;
    }

    /** Checks every modifier of the instruction; returns null if fine, else the first unknown one. */
    static String unknown(String opc, java.util.List<String> mods) {
        Set<String> own = OWN.get(opc);
        if (own == null) return null;
        for (String m : mods) {
            if (own.contains(m) || SPACES.contains(m) || ORDER.contains(m) || ROUND.contains(m)) continue;
            if (ScalarType.fromName(m) != null) continue;
            if (m.equals(".u16x2") || m.equals(".s16x2")) continue; // packed 16-bit integers: PackedInt16Ops runs or refuses each form by name
            if (m.startsWith(".L1::") || m.startsWith(".L2::")) continue;
            if ((opc.equals("mma") || opc.equals("wgmma") || opc.equals("wmma")) && m.matches("\\.m\\d+n\\d+k\\d+")) continue; // shapes: MmaOp names the ones it models
            return m;
        }
        return null;
    }
}
