package io.barrierscope.ptx;

/** A declared register of one function; {@code index} is unique within the function (scopes resolved). */
public record Register(int index, String name, ScalarType type) {}
