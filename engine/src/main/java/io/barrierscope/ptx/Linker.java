package io.barrierscope.ptx;

import io.barrierscope.diag.CudaLoc;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finishes a parse: builds the {@link Function}s, binds the names left open (labels, functions,
 * branch-target lists) and attaches CUDA locations, whose file names are only known once the
 * {@code .file} directives at the end of the module have been read.
 */
final class Linker {
    private final PtxParser p;
    private final Map<String, Function> functions = new LinkedHashMap<>();
    private final Map<List<Integer>, CudaLoc> locs = new HashMap<>();

    private Linker(PtxParser p) { this.p = p; }

    static Module link(PtxParser p) { return new Linker(p).run(); }

    private Module run() {
        String file = p.src.name;
        Map<String, List<Instruction>> bodies = new HashMap<>();
        // Functions first, with instruction lists filled afterwards, so that call operands can
        // refer to any function, including the one they are in (recursion).
        for (FnBuilder fb : p.functions.values()) {
            List<Instruction> list = new ArrayList<>(fb.insns.size());
            bodies.put(fb.name, list);
            functions.put(fb.name, new Function(fb.name, fb.entry, fb.hasBody, List.copyOf(fb.params),
                    List.copyOf(fb.returns), List.copyOf(fb.registers), List.copyOf(fb.variables),
                    Collections.unmodifiableList(list), Collections.unmodifiableMap(new LinkedHashMap<>(fb.labels)),
                    fb.directives(), fb.nameTok.pos(file)));
        }
        for (FnBuilder fb : p.functions.values()) {
            List<Instruction> list = bodies.get(fb.name);
            for (FnBuilder.PendingInsn pi : fb.insns) {
                List<Operand> ops = new ArrayList<>(pi.operands().size());
                for (OpNode n : pi.operands()) ops.add(resolve(n, fb, pi));
                list.add(new Instruction(list.size(), pi.opcode(), pi.modifiers(), pi.guard(), List.copyOf(ops),
                        pi.posTok().pos(file), loc(pi), pi.text()));
            }
        }
        return new Module(file, p.version, List.copyOf(p.target), p.addressSize,
                Collections.unmodifiableMap(new LinkedHashMap<>(p.files)), List.copyOf(p.moduleVars),
                Collections.unmodifiableMap(functions), p.src.lines);
    }

    private CudaLoc loc(FnBuilder.PendingInsn pi) {
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

    private Operand resolve(OpNode n, FnBuilder fb, FnBuilder.PendingInsn pi) {
        if (n instanceof OpNode.Done d) return d.op();
        if (n instanceof OpNode.Vec v) return new Operand.Vector(resolveAll(v.elements(), fb, pi));
        if (n instanceof OpNode.Parens ps) return new Operand.ParenList(resolveAll(ps.elements(), fb, pi));
        if (n instanceof OpNode.Pair pr) return new Operand.Pair(resolve(pr.first(), fb, pi), resolve(pr.second(), fb, pi));
        if (n instanceof OpNode.Addr a) {
            return new Operand.Address(a.base() == null ? null : resolve(a.base(), fb, pi), a.offset());
        }
        return name((OpNode.Name) n, fb, pi);
    }

    private List<Operand> resolveAll(List<OpNode> nodes, FnBuilder fb, FnBuilder.PendingInsn pi) {
        List<Operand> out = new ArrayList<>(nodes.size());
        for (OpNode n : nodes) out.add(resolve(n, fb, pi));
        return List.copyOf(out);
    }

    private Operand name(OpNode.Name n, FnBuilder fb, FnBuilder.PendingInsn pi) {
        Token t = n.tok();
        String name = t.text();
        Integer target = fb.lookupLabel(n.scope(), name);
        if (target != null) {
            if (n.offset() != 0) throw p.src.error(t, "a label cannot take an offset");
            return new Operand.Label(name, target);
        }
        FnBuilder.TargetList tl = fb.lookupTargetList(n.scope(), name);
        if (tl != null) {
            // brx.idx and indirect calls name a list of targets: expand it to its members
            List<Operand> members = new ArrayList<>();
            for (Token m : tl.names()) {
                if (tl.calls()) {
                    Function f = functions.get(m.text());
                    if (f == null) throw p.src.error(m, "undefined function " + m.text());
                    members.add(new Operand.Symbol(m.text(), null, f, 0));
                } else {
                    Integer idx = fb.lookupLabel(n.scope(), m.text());
                    if (idx == null) throw p.src.error(m, "undefined label " + m.text());
                    members.add(new Operand.Label(m.text(), idx));
                }
            }
            return new Operand.Vector(List.copyOf(members));
        }
        if (n.labelOnly()) throw p.src.error(t, "undefined label " + name);
        Variable v = p.moduleVariable(name);
        if (v != null) return new Operand.Symbol(name, v, null, n.offset());
        Function f = functions.get(name);
        if (f != null) return new Operand.Symbol(name, null, f, n.offset());
        throw p.src.error(t, (pi.opcode().equals("call") ? "undefined function " : "undefined symbol ") + name);
    }
}
