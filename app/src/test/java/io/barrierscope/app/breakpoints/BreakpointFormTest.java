package io.barrierscope.app.breakpoints;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.trace.Breakpoint;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The breakpoint editor's fields per kind build the spec the command line's --break takes. */
class BreakpointFormTest {
    private static void set(BreakpointForm form, String kind, String key, String v) {
        BreakpointForm.Field f = BreakpointForm.fields(kind).stream().filter(x -> x.key().equals(key)).findFirst().orElseThrow();
        form.value(f).set(v);
    }

    @Test
    void everyKindTheChooserListsHasFields() {
        for (String k : BreakpointsViewModel.KINDS) {
            if (!k.equals(BreakpointsViewModel.AS_TYPED)) assertTrue(BreakpointForm.knows(k), k);
        }
    }

    @Test
    void mbarrierVariablePhaseAndCta() {
        BreakpointForm form = new BreakpointForm();
        set(form, "mbarrier", ":var", "full");
        set(form, "mbarrier", "phase", "3");
        set(form, "mbarrier", "cta", "1");
        String spec = form.spec("mbarrier");
        assertEquals("mbarrier:full,phase=3,cta=1", spec);
        Breakpoint b = Breakpoint.parse(spec);
        assertEquals(Breakpoint.Kind.MBARRIER, b.kind);
        assertEquals("full", b.variable);
        assertEquals(3, b.phase);
        assertEquals(1, b.cta);
    }

    @Test
    void ctaBarrierIdAndGeneration() {
        BreakpointForm form = new BreakpointForm();
        set(form, "barrier", ":id", "1");
        set(form, "barrier", "phase", "4");
        Breakpoint b = Breakpoint.parse(form.spec("barrier"));
        assertEquals(Breakpoint.Kind.BARRIER, b.kind);
        assertEquals(1, b.barrierId);
        assertEquals(4, b.phase);
    }

    @Test
    void lineWithAndWithoutItsCudaFile() {
        BreakpointForm form = new BreakpointForm();
        set(form, "line", ":line", "42");
        assertEquals("line:42", form.spec("line"));
        set(form, "line", ":file", "kernel.cu");
        set(form, "line", "warp", "0");
        set(form, "line", "hits", "3");
        assertEquals("line:kernel.cu:42,warp=0,hits=3", form.spec("line"), "as docs/time-travel.md writes it");
        Breakpoint b = Breakpoint.parse(form.spec("line"));
        assertEquals(Breakpoint.Kind.CUDA_LINE, b.kind);
        assertEquals("kernel.cu", b.file);
        assertEquals(42, b.line);
    }

    @Test
    void everyOtherKindParsesWithItsConditions() {
        BreakpointForm form = new BreakpointForm();
        set(form, "arrive", "thread", "5");
        set(form, "arrive", "cluster", "0");
        set(form, "diagnostic", ":code", "mbarrier-stale-token");
        set(form, "tx-zero", ":var", "0x18");
        List<String> specs = new ArrayList<>();
        for (String k : List.of("tx-zero", "arrive", "wait-false", "park", "deadlock", "diagnostic")) specs.add(form.spec(k));
        assertEquals(List.of("tx-zero:0x18,cluster=0", "arrive,thread=5,cluster=0", "wait-false,thread=5,cluster=0",
                "park,thread=5,cluster=0", "deadlock", "diagnostic:mbarrier-stale-token,thread=5,cluster=0"), specs);
        for (String s : specs) assertEquals(s, Breakpoint.parse(s).spec(), s);
    }

    @Test
    void aWrongFieldIsNamed() {
        BreakpointForm form = new BreakpointForm();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> form.spec("line")).getMessage().contains("line number"));
        set(form, "line", ":line", "4x");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> form.spec("line")).getMessage().startsWith("Line:"));
        set(form, "mbarrier", ":var", "full,phase=1");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> form.spec("mbarrier")).getMessage().startsWith("Variable:"));
    }

    @Test
    void theModelAddsTheFieldsSpecWhenTheTextIsEmpty() {
        List<String> added = new ArrayList<>();
        BreakpointsViewModel vm = new BreakpointsViewModel(new BreakpointsViewModel.Actions() {
            @Override public void add(String spec) { added.add(spec); }
            @Override public void remove(int id) {}
            @Override public void enable(int id, boolean on) {}
        });
        vm.kindProperty().set("mbarrier");
        set(vm.form(), "mbarrier", ":var", "empty");
        assertEquals("mbarrier:empty", vm.formSpec());
        vm.add();
        vm.kindProperty().set("line");
        vm.add(); // no line number: said under the field, nothing sent
        assertEquals(List.of("mbarrier:empty"), added);
        assertTrue(vm.errorProperty().get().contains("line number"));
        vm.textProperty().set("42"); // typed text still wins
        vm.add();
        assertEquals(List.of("mbarrier:empty", "line:42"), added);
    }
}
