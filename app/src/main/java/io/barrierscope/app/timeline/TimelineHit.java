package io.barrierscope.app.timeline;

/**
 * What is under a point of the timeline: the lane, the step the thing happened at, the position
 * a click seeks to (after the event, as engine breakpoints stop; the step itself for a span) and
 * a description for the tooltip. {@code event} for a marker or a completion, false for a span of state.
 */
public record TimelineHit(int lane, long step, long seekStep, String description, boolean event) {}
