package io.barrierscope.ptx;

/** PTX state spaces (PTX ISA 5.1) a variable can be declared in. */
public enum StateSpace {
    REG, SREG, CONST, GLOBAL, LOCAL, PARAM, SHARED, TEX;

    public static StateSpace fromDirective(String d) {
        return switch (d) {
            case ".reg" -> REG;
            case ".sreg" -> SREG;
            case ".const" -> CONST;
            case ".global" -> GLOBAL;
            case ".local" -> LOCAL;
            case ".param" -> PARAM;
            case ".shared" -> SHARED;
            case ".tex" -> TEX;
            default -> null;
        };
    }
}
