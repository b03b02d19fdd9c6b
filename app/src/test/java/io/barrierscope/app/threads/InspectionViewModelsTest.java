package io.barrierscope.app.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.session.Inspection;
import io.barrierscope.ptx.ScalarType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Registers, shared memory and the value formats, on hand-made inspections. */
class InspectionViewModelsTest {
    private static Inspection of(int slot, long r1, byte[] shared, List<Inspection.MbarrierWord> words) {
        return new Inspection(slot, "CTA (0,0,0) thread (" + slot + ",0,0)", "k",
                List.of(new Inspection.RegisterValue("%p1", ScalarType.PRED, 1),
                        new Inspection.RegisterValue("%r1", ScalarType.U32, r1),
                        new Inspection.RegisterValue("%rd2", ScalarType.S64, -5)),
                0, "CTA (0,0,0)", shared, List.of(new Inspection.Symbol("full", 0, 16), new Inspection.Symbol("tile", 16, 8)),
                words);
    }

    @Test
    void registersShowHexAndDecimalAndFlagWhatChanged() {
        RegistersViewModel vm = new RegistersViewModel();
        vm.update(of(3, 42, new byte[0], List.of()));
        assertEquals("Registers of CTA (0,0,0) thread (3,0,0) in k", vm.titleProperty().get());
        RegistersViewModel.Row r1 = vm.rows().get(1);
        assertEquals(new RegistersViewModel.Row("%r1", ".u32", "0x0000002a", "42", false), r1);
        assertEquals("true", vm.rows().get(0).decimal());
        assertEquals("0xfffffffffffffffb", vm.rows().get(2).hex());
        assertEquals("-5", vm.rows().get(2).decimal());
        vm.update(of(3, 43, new byte[0], List.of()));
        assertTrue(vm.rows().get(1).changed());
        assertFalse(vm.rows().get(0).changed());
        vm.update(of(4, 1, new byte[0], List.of()));
        assertFalse(vm.rows().get(1).changed(), "another thread: nothing to compare with");
    }

    @Test
    void formats() {
        assertEquals("4294967295 (-1)", RegisterFormat.decimal(ScalarType.B32, 0xFFFF_FFFFL));
        assertEquals("0xffffffff", RegisterFormat.hex(ScalarType.B32, -1));
        assertEquals("1.5", RegisterFormat.decimal(ScalarType.F32, Float.floatToIntBits(1.5f)));
        assertEquals("-2.0", RegisterFormat.decimal(ScalarType.F64, Double.doubleToLongBits(-2.0)));
        assertEquals("1.0", RegisterFormat.decimal(ScalarType.F16, 0x3C00));
        assertEquals("-128", RegisterFormat.decimal(ScalarType.S8, 0x80));
        assertEquals("0x1", RegisterFormat.hex(ScalarType.PRED, 1));
    }

    @Test
    void sharedMemoryRowsNameTheirVariableAndDecodeMbarriers() {
        byte[] mem = new byte[32];
        mem[16] = 7;
        mem[20] = (byte) 0xFF;
        mem[21] = (byte) 0xFF;
        mem[22] = (byte) 0xFF;
        mem[23] = (byte) 0xFF;
        var word = new Inspection.MbarrierWord(8, "full+8 (shared 0x8)", true, 3, 63, 64, 256, 1, 256, 0);
        SharedMemoryViewModel vm = new SharedMemoryViewModel();
        vm.update(of(0, 0, mem, List.of(word)));
        assertEquals(List.of(0, 8, 16, 24), vm.offsets());
        assertEquals("Shared memory of CTA (0,0,0): 32 bytes, 1 mbarrier", vm.titleProperty().get());
        SharedMemoryViewModel.Row full8 = vm.row(8);
        assertEquals("full+8", full8.variable());
        assertTrue(full8.isMbarrier());
        assertEquals("phase 3 (parity 1) · pending 63 of 64 · tx +256 (256 bytes to come) · this phase: 256 bytes "
                + "expected, 0 arrived", full8.mbarrier());
        SharedMemoryViewModel.Row tile = vm.row(16);
        assertEquals("tile", tile.variable());
        assertEquals("07 00 00 00 ff ff ff ff", tile.hex());
        assertEquals("7, -1", tile.words());
        assertEquals("", vm.row(24).variable());
        vm.onlyInUseProperty().set(true);
        assertEquals(List.of(0, 8, 16), vm.offsets(), "the zero word outside every variable is hidden");
        long rev = vm.revisionProperty().get();
        vm.update(of(0, 0, mem, List.of(word)));
        assertTrue(vm.revisionProperty().get() > rev);
    }

    @Test
    void overDeliveryAndInvalidation() {
        assertTrue(SharedMemoryViewModel.decode(new Inspection.MbarrierWord(0, "b", true, 0, 0, 1, -16, 0, 0, 16))
                .contains("tx -16 (16 bytes over-delivered)"));
        assertTrue(SharedMemoryViewModel.decode(new Inspection.MbarrierWord(0, "b", false, 2, 0, 1, 0, 0, 0, 0))
                .startsWith("not a valid mbarrier"));
    }
}
