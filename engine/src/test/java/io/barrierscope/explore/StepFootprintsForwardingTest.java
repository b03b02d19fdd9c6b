package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.exec.MemoryModelHook;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Explore puts {@link StepFootprints} in front of the race detector. A hook method it does not override falls back to
 * the interface's default, which is a different (coarser) meaning: fence.mbarrier_init became a full cluster fence under
 * explore and hid races a plain run reports, and the warp-wide mbarrier paths went lane by lane.
 */
class StepFootprintsForwardingTest {

    @Test
    void stepFootprintsForwardsEveryHookMethodToTheAnalysisBehindIt() {
        List<String> missing = new ArrayList<>();
        for (Method m : MemoryModelHook.class.getMethods()) {
            if (m.getDeclaringClass() != MemoryModelHook.class || Modifier.isStatic(m.getModifiers())) continue;
            try {
                StepFootprints.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
            } catch (NoSuchMethodException e) {
                missing.add(m.getName() + Arrays.toString(m.getParameterTypes()));
            }
        }
        missing.sort(null);
        assertEquals(List.of(), missing);
    }
}
