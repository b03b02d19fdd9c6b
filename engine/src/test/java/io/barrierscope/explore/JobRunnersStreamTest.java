package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The stream of tasks handed out ahead: results in hand-out order, a worker's failure thrown where its result is taken, no hang on close. */
class JobRunnersStreamTest {
    private static JobRunners twoJobs(Explorer ex) {
        ex.jobs(2, () -> PartialOrderTest.exchanges(2));
        JobRunners r = ex.runners();
        r.start();
        return r;
    }

    @Test
    void aTaskThatThrowsOnAWorkerThrowsWhereItsResultIsTakenAndTheStreamStillCloses() {
        Explorer ex = new Explorer(PartialOrderTest.exchanges(2), () -> 0L);
        JobRunners runners = twoJobs(ex);
        ScheduleRunner main = runners.get(0);
        CountDownLatch started = new CountDownLatch(1);
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (JobRunners.Stream<Integer> st = runners.stream()) {
                // On the worker a task fails; on the exploring thread it waits until one has (so a worker ran one).
                for (int i = 0; i < 4; i++) {
                    int k = i;
                    st.submit(r -> {
                        if (r != main) {
                            started.countDown();
                            throw new ArithmeticException("worker failure");
                        }
                        try {
                            assertTrue(started.await(20, TimeUnit.SECONDS), "a worker ran a task");
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                        return k;
                    });
                }
                int thrown = 0;
                for (int i = 0; i < 4; i++) {
                    try {
                        assertEquals(i, st.take(i));
                    } catch (ArithmeticException e) {
                        assertEquals("worker failure", e.getMessage());
                        thrown++;
                    }
                }
                assertTrue(thrown > 0, "the worker's failure was thrown where its result was taken");
            } finally {
                runners.stop();
            }
        });
    }

    @Test
    void closingWithTasksInFlightStopsThemAndReturns() {
        Explorer ex = new Explorer(PartialOrderTest.exchanges(2), () -> 0L);
        JobRunners runners = twoJobs(ex);
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (JobRunners.Stream<Integer> st = runners.stream()) {
                for (int i = 0; i < 8; i++) {
                    st.submit(r -> {
                        while (!st.closed()) Thread.onSpinWait(); // a task runs until the stream is closed, as a limit stops a run
                        return 1;
                    });
                }
            } finally {
                runners.stop();
            }
        });
    }

    /**
     * The random phase hands out a task per schedule for as long as its budget lasts: the stream
     * keeps about the tasks handed out and not yet taken, not a slot per task that went through it,
     * and gives every result in order, with one job and with two, taken in order or not.
     */
    @Test
    void aLongStreamHoldsOnlyTheTasksNotYetTaken() {
        for (int jobs = 1; jobs <= 2; jobs++) {
            Explorer ex = new Explorer(PartialOrderTest.exchanges(2), () -> 0L);
            JobRunners runners = jobs == 1 ? ex.runners() : twoJobs(ex);
            int most = 0;
            try (JobRunners.Stream<Integer> st = runners.stream()) {
                int handed = 0;
                for (int i = 0; i < 10_000; i += 2) {
                    for (; handed < i + 8; handed++) {
                        int k = handed;
                        assertEquals(k, st.submit(r -> k));
                    }
                    // Taken two at a time, the later first: a taken slot in the middle waits for the one before it.
                    assertEquals(i + 1, st.take(i + 1));
                    assertEquals(i, st.take(i));
                    most = Math.max(most, st.held());
                }
            } finally {
                runners.stop();
            }
            assertTrue(most <= 64, jobs + " jobs: held at most " + most + " slots");
        }
    }
}
