package io.barrierscope.app.session;

import io.barrierscope.exec.TensorFragments;
import java.util.List;

/**
 * One operand of a tensor-core instruction as the matrix it belongs to, copied out of the engine
 * on its thread ({@link TensorCapture}): per element, who holds it (a lane's register, or a
 * shared-memory address read through a wgmma matrix descriptor) and its value now.
 *
 * @param instructions every tensor-core instruction of the program (to choose from)
 * @param pc           the instruction shown, -1 when the program has none
 * @param operand      A, B, C or D
 * @param rows         matrix rows
 * @param cols         matrix columns
 * @param type         element type, e.g. "f16"
 * @param subject      whose registers: "warp 2 of CTA (0,0,0)" or "warpgroup 0 (warps 0-3) of CTA (0,0,0)"
 * @param note         for a descriptor operand the descriptor decoded, else ""
 * @param cells        row-major, rows x cols (null where no lane holds an element, and every cell of a
 *                     descriptor operand whose wgmma the warpgroup has not issued yet)
 */
public record TensorTile(List<TensorFragments.Instruction> instructions, int pc, String operand, int rows, int cols, String type,
                         String subject, String note, List<Cell> cells) {

    /**
     * Element ({@code row}, {@code col}): held by {@code lane} of warp {@code warp} (within the
     * warpgroup) in {@code register}, or (lane -1) at shared-memory {@code address}; its
     * {@code bits} and {@code value} as the instruction reads them ("?" outside shared memory).
     */
    public record Cell(int row, int col, int warp, int lane, String register, long address, long bits, String value) {}

    /** A program without tensor-core instructions. */
    public static TensorTile none() { return new TensorTile(List.of(), -1, "", 0, 0, "", "", "", List.of()); }

    public Cell cell(int row, int col) { return cells.get(row * cols + col); }
}
