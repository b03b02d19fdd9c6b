package io.barrierscope.ptx;

import io.barrierscope.diag.CudaLoc;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finishes a parse: binds the names left open by the functions' bodies (functions, module
 * variables declared later, the functions of {@code .calltargets} lists) and attaches CUDA
 * locations, whose file names are only known once the {@code .file} directives at the end of the
 * module have been read. Each {@link Function} was built where its body ended, so a call can name
 * any function, including the one it is in (recursion); its instruction list is filled here, and
 * what was kept for it is dropped as soon as it is.
 */
final class Linker {
    private final PtxParser p;
    private final Map<String, Function> functions = new LinkedHashMap<>();
    private final Map<List<Integer>, CudaLoc> locs = new HashMap<>();

    private Linker(PtxParser p) { this.p = p; }

    static Module link(PtxParser p) { return new Linker(p).run(); }

    private Module run() {
        for (ParsedFunction pf : p.functions.values()) functions.put(pf.function.name(), pf.function);
        for (ParsedFunction pf : p.functions.values()) {
            List<Instruction> list = pf.body;
            for (ParsedFunction.Insn pi : pf.pending) {
                List<Operand> ops = new ArrayList<>(pi.operands().size());
                for (OpNode n : pi.operands()) ops.add(resolve(n, pi));
                list.add(new Instruction(list.size(), pi.opcode(), pi.modifiers(), pi.guard(), List.copyOf(ops),
                        pi.pos(), loc(pi), pi.text()));
            }
            pf.pending = null;
        }
        return new Module(p.src.name, p.version, List.copyOf(p.target), p.addressSize,
                Collections.unmodifiableMap(new LinkedHashMap<>(p.files)), List.copyOf(p.moduleVars),
                Collections.unmodifiableMap(functions), p.src.lines);
    }

    private CudaLoc loc(ParsedFunction.Insn pi) {
        if (!pi.hasLoc()) return null;
        int[] chain = pi.locInlined();
        int[] all = new int[3 + chain.length];
        all[0] = pi.locFile();
        all[1] = pi.locLine();
        all[2] = pi.locCol();
        System.arraycopy(chain, 0, all, 3, chain.length);
        return loc(all, 0);
    }

    /** The location of triple {@code i} of a chain, inlined at the ones after it (shared: one object per distinct chain). */
    private CudaLoc loc(int[] chain, int i) {
        List<Integer> key = new ArrayList<>();
        for (int k = i; k < chain.length; k++) key.add(chain[k]);
        CudaLoc known = locs.get(key);
        if (known != null) return known;
        CudaLoc outer = i + 3 < chain.length ? loc(chain, i + 3) : null;
        String name = p.files.get(chain[i]);
        CudaLoc made = new CudaLoc(name != null ? name : "<file " + chain[i] + ">", chain[i + 1], chain[i + 2], outer);
        locs.put(key, made);
        return made;
    }

    private Operand resolve(OpNode n, ParsedFunction.Insn pi) {
        if (n instanceof OpNode.Done d) return d.op();
        if (n instanceof OpNode.Vec v) return new Operand.Vector(resolveAll(v.elements(), pi));
        if (n instanceof OpNode.Parens ps) return new Operand.ParenList(resolveAll(ps.elements(), pi));
        if (n instanceof OpNode.Pair pr) return new Operand.Pair(resolve(pr.first(), pi), resolve(pr.second(), pi));
        if (n instanceof OpNode.Addr a) return new Operand.Address(a.base() == null ? null : resolve(a.base(), pi), a.offset());
        if (n instanceof OpNode.Fails f) throw p.src.error(f.at(), f.message());
        if (n instanceof OpNode.Calls cs) {
            // indirect calls name a list of targets: expand it to its members
            List<Operand> members = new ArrayList<>();
            for (Token m : cs.names()) {
                Function f = functions.get(m.text());
                if (f == null) throw p.src.error(m, "undefined function " + m.text());
                members.add(new Operand.Symbol(m.text(), null, f, 0));
            }
            return new Operand.Vector(List.copyOf(members));
        }
        if (n instanceof OpNode.Global g) return global(g, pi);
        // a Name is bound where its function ends (ParsedFunction.finish)
        throw new IllegalStateException("unbound operand " + n);
    }

    private List<Operand> resolveAll(List<OpNode> nodes, ParsedFunction.Insn pi) {
        List<Operand> out = new ArrayList<>(nodes.size());
        for (OpNode n : nodes) out.add(resolve(n, pi));
        return List.copyOf(out);
    }

    private Operand global(OpNode.Global g, ParsedFunction.Insn pi) {
        Token t = g.tok();
        String name = t.text();
        Variable v = p.moduleVariable(name);
        if (v != null) return new Operand.Symbol(name, v, null, g.offset());
        Function f = functions.get(name);
        if (f != null) return new Operand.Symbol(name, null, f, g.offset());
        throw p.src.error(t, (pi.opcode().equals("call") ? "undefined function " : "undefined symbol ") + name);
    }
}
