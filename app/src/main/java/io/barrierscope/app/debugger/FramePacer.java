package io.barrierscope.app.debugger;

import java.util.ArrayDeque;
import java.util.function.Consumer;
import javafx.animation.AnimationTimer;

/**
 * Runs tasks one per frame: each in an animation timer's turn of a pulse, so what it changes is
 * styled, laid out and painted in that same pulse, and the next task waits for the next pulse.
 * The window hands it to its view model to spread a run's stop over frames ({@link PaneStages}).
 */
final class FramePacer implements Consumer<Runnable> {
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private final AnimationTimer timer = new AnimationTimer() {
        @Override
        public void handle(long now) {
            Runnable r = queue.poll();
            if (queue.isEmpty()) stop();
            if (r != null) r.run();
        }
    };

    @Override
    public void accept(Runnable task) {
        queue.add(task);
        timer.start();
    }
}
