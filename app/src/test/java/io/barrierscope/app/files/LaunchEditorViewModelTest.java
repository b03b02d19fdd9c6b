package io.barrierscope.app.files;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.files.LaunchEditorViewModel.Kind;
import io.barrierscope.app.files.LaunchEditorViewModel.Param;
import io.barrierscope.exec.Dim3;
import io.barrierscope.launch.ArgSpec;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launch editor's model: parameters from the entry's .param list, and a launch file the engine reads. */
class LaunchEditorViewModelTest {
    @TempDir Path dir;

    private Path copyOfPrintf() throws Exception {
        Path ptx = dir.resolve("printf_debug.ptx");
        Files.copy(TestFiles.printfPtx(), ptx);
        return ptx;
    }

    @Test
    void eachParameterOfTheEntryIsARowPointersAsBuffersOthersAsValues() throws Exception {
        Path ptx = copyOfPrintf();
        LaunchEditorViewModel vm = new LaunchEditorViewModel(ptx, ptx);
        assertEquals(List.of("debug_print"), vm.kernels());
        List<Param> ps = vm.params();
        assertEquals(3, ps.size());
        assertEquals("debug_print_param_0", ps.get(0).name());
        assertEquals(".u64", ps.get(0).ptxType());
        assertEquals(Kind.BUFFER, ps.get(0).kind.get());
        assertEquals(Kind.VALUE, ps.get(2).kind.get());
        assertEquals("u32", ps.get(2).type.get());
        assertEquals("1,1,1", vm.grid.get());
        assertEquals("32,1,1", vm.block.get());
        assertTrue(vm.launchFile.get().endsWith("printf_debug.launch.json"), vm.launchFile.get());
    }

    @Test
    void savedLaunchFileIsWhatTheEngineReadsWithEveryField() throws Exception {
        Path ptx = copyOfPrintf();
        LaunchEditorViewModel vm = new LaunchEditorViewModel(ptx, ptx);
        vm.grid.set("3");
        vm.block.set("64,2");
        vm.cluster.set("1");
        vm.dynamicShared.set("256");
        vm.policy.set("random");
        vm.seed.set("7");
        Param out = vm.params().get(0);
        out.type.set("f32");
        out.count.set("128");
        out.init.set("iota");
        vm.params().get(1).buffer.set("scratch");
        vm.params().get(2).value.set("42");
        vm.launchFile.set(dir.resolve("mine.json").toString());
        Path saved = vm.save();

        LaunchSpec spec = LaunchValidation.validate(saved).spec();
        assertEquals(ptx.toAbsolutePath().normalize(), spec.ptx());
        assertEquals("debug_print", spec.kernel());
        assertEquals(new Dim3(3, 1, 1), spec.grid());
        assertEquals(new Dim3(64, 2, 1), spec.block());
        assertEquals(new Dim3(1, 1, 1), spec.cluster());
        assertEquals(256, spec.dynamicSharedBytes());
        assertEquals("random", spec.policy());
        assertEquals(7, spec.seed());
        ArgSpec a0 = spec.args().get(0);
        assertEquals("debug_print_param_0", a0.buffer());
        assertEquals(128, a0.count());
        assertEquals("iota", a0.init());
        assertEquals("scratch", spec.args().get(1).buffer());
        assertEquals(42L, spec.args().get(2).value().longValue());
        // and it launches
        assertEquals("debug_print", LaunchValidation.validate(saved).start().program().kernel.name());
    }

    @Test
    void aPointerParameterMayBeAValueInstead() throws Exception {
        Path ptx = copyOfPrintf();
        LaunchEditorViewModel vm = new LaunchEditorViewModel(ptx, ptx);
        vm.params().get(1).kind.set(Kind.VALUE);
        vm.params().get(1).type.set("u64");
        vm.params().get(1).value.set("18446744073709551615");
        vm.launchFile.set(dir.resolve("v.json").toString());
        LaunchSpec spec = LaunchValidation.validate(vm.save()).spec();
        assertFalse(spec.args().get(1).isBuffer());
    }

    @Test
    void aFieldTheReaderRefusesLeavesNothingOnDisk() throws Exception {
        Path ptx = copyOfPrintf();
        LaunchEditorViewModel vm = new LaunchEditorViewModel(ptx, ptx);
        Path target = dir.resolve("bad.json");
        vm.launchFile.set(target.toString());
        vm.dynamicShared.set("999999999");
        BadInputException e = assertThrows(BadInputException.class, vm::save);
        assertTrue(e.getMessage().contains("dynamicSharedBytes"), e.getMessage());
        assertFalse(Files.exists(target));
        vm.dynamicShared.set("0");
        vm.grid.set("two");
        e = assertThrows(BadInputException.class, vm::save);
        assertTrue(e.getMessage().contains("grid"), e.getMessage());
        vm.grid.set("2");
        vm.params().get(1).buffer.set(vm.params().get(0).buffer.get());
        e = assertThrows(BadInputException.class, vm::save);
        assertTrue(e.getMessage().contains("already uses buffer"), e.getMessage());
        assertFalse(Files.exists(target));
    }

    @Test
    void saveReplacesAnExistingLaunchFileWhole() throws Exception {
        Path ptx = copyOfPrintf();
        Path target = dir.resolve("k.json");
        Files.writeString(target, "old");
        LaunchEditorViewModel vm = new LaunchEditorViewModel(ptx, ptx);
        vm.launchFile.set(target.toString());
        vm.save();
        assertEquals(1, LaunchValidation.validate(target).spec().grid().x());
        try (var s = Files.list(dir)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary file left behind");
        }
    }

    private static final String TMA = """
            .version 8.0
            .target sm_90a
            .address_size 64
            .visible .entry tma(
                .param .u64 out,
                .param .align 64 .b8 tmap[128],
                .param .s32 n
            )
            .reqntid 128, 1, 1
            {
                ret;
            }
            """;

    @Test
    void aTensorMapIsShownWithItsNoteAndSavingSaysItNeedsALaunchFileEntry() throws Exception {
        Path ptx = dir.resolve("tma.ptx");
        Files.writeString(ptx, TMA);
        LaunchEditorViewModel vm = new LaunchEditorViewModel(ptx, ptx);
        assertEquals("128,1,1", vm.block.get(), "the entry's .reqntid is the block");
        Param t = vm.params().get(1);
        assertEquals(Kind.TENSOR_MAP, t.kind.get());
        assertTrue(t.note().contains("\"tensorMap\""), t.note());
        assertEquals("s32", vm.params().get(2).type.get());
        assertNull(vm.params().get(0).note());
        vm.launchFile.set(dir.resolve("tma.json").toString());
        BadInputException e = assertThrows(BadInputException.class, vm::save);
        assertTrue(e.getMessage().contains("tmap") && e.getMessage().contains("tensorMap"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("tma.json")));
    }

    @Test
    void aCudaFileGetsTheCompiledPtxBesideItsLaunchFile() throws Exception {
        Path cu = dir.resolve("k.cu");
        Files.writeString(cu, "// source");
        Path built = Files.createDirectories(dir.resolve("nvcc-out")).resolve("k.ptx");
        Files.copy(TestFiles.printfPtx(), built);
        LaunchEditorViewModel vm = new LaunchEditorViewModel(cu, built);
        assertTrue(vm.compiled());
        assertEquals(dir.resolve("k.launch.json").toString(), vm.launchFile.get());
        Path saved = vm.save();
        assertEquals(dir.resolve("k.launch.ptx"), LaunchValidation.validate(saved).spec().ptx());
        assertEquals(Files.readString(built), Files.readString(dir.resolve("k.launch.ptx")));
    }

    @Test
    void aCompiledPtxNeverOverwritesADifferentFile() throws Exception {
        Path cu = dir.resolve("k.cu");
        Files.writeString(cu, "// source");
        Path built = Files.createDirectories(dir.resolve("nvcc-out")).resolve("k.ptx");
        Files.copy(TestFiles.printfPtx(), built);
        Files.writeString(dir.resolve("mine.ptx"), "// someone's own");
        LaunchEditorViewModel vm = new LaunchEditorViewModel(cu, built);
        vm.launchFile.set(dir.resolve("mine.json").toString());
        assertThrows(BadInputException.class, vm::save);
        assertEquals("// someone's own", Files.readString(dir.resolve("mine.ptx")));
        assertFalse(Files.exists(dir.resolve("mine.json")));
    }

    /** What opening {@code text} saved as {@code file} says: the message the editor must give for it. */
    private static String messageOpening(Path file, String text) throws Exception {
        Files.writeString(file, text);
        try {
            return assertThrows(BadInputException.class, () -> LaunchValidation.validate(file)).getMessage();
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void aValueOutOfItsTypesRangeIsRefusedWithTheLocatedMessageOpeningTheFileGivesAndNothingIsSaved() throws Exception {
        Path ptx = copyOfPrintf();
        LaunchEditorViewModel vm = new LaunchEditorViewModel(ptx, ptx);
        Path target = dir.resolve("bad.launch.json");
        vm.launchFile.set(target.toString());
        vm.params().get(2).value.set("4294967296"); // the .u32 parameter: one past its range
        BadInputException e = assertThrows(BadInputException.class, vm::save);
        assertFalse(Files.exists(target), "nothing saved");
        assertTrue(e.getMessage().startsWith(target + ":"), e.getMessage());
        assertTrue(e.getMessage().contains("4294967296"), e.getMessage());
        assertEquals(messageOpening(target, vm.json(target)), e.getMessage());
    }

    @Test
    void aLaunchTheFileWouldBeRefusedForAgainstItsPtxIsNotSavedAndGetsTheSameLocatedMessage() throws Exception {
        Path ptx = copyOfPrintf();
        LaunchEditorViewModel vm = new LaunchEditorViewModel(ptx, ptx);
        Path target = dir.resolve("big.launch.json");
        vm.launchFile.set(target.toString());
        vm.grid.set("100");
        vm.block.set("1024"); // 102,400 threads: only the checks against the PTX's launch see it
        BadInputException e = assertThrows(BadInputException.class, vm::save);
        assertFalse(Files.exists(target), "nothing saved");
        assertTrue(e.getMessage().matches("(?s)" + java.util.regex.Pattern.quote(target.toString()) + ":\\d+:\\d+: error: the launch has 102400 threads.*"),
                e.getMessage());
        assertEquals(messageOpening(target, vm.json(target)), e.getMessage());
    }

    @Test
    void aCompiledPtxIsNotCopiedWhenItsLaunchIsRefused() throws Exception {
        Path cu = dir.resolve("k.cu");
        Files.writeString(cu, "// source");
        Path built = Files.createDirectories(dir.resolve("nvcc-out")).resolve("k.ptx");
        Files.copy(TestFiles.printfPtx(), built);
        LaunchEditorViewModel vm = new LaunchEditorViewModel(cu, built);
        vm.params().get(2).value.set("-1");
        BadInputException e = assertThrows(BadInputException.class, vm::save);
        assertTrue(e.getMessage().startsWith(dir.resolve("k.launch.json") + ":"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("k.launch.json")));
        assertFalse(Files.exists(dir.resolve("k.launch.ptx")));
    }
}
