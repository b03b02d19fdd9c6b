package io.barrierscope.fuzz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Damages PTX the way edits and attackers do: numbers changed to edges, lines dropped, doubled or swapped, operands exchanged. */
final class PtxMutator {
    private PtxMutator() {}

    private static final Pattern NUMBER = Pattern.compile("(?<![%\\w$])-?(0[xX][0-9a-fA-F]+|\\d+)(?![\\w])");
    private static final Pattern REG = Pattern.compile("%(r|rd|p|rs|f|fd)\\d+");
    private static final String[] NUMBERS = {"0", "1", "-1", "2", "3", "15", "16", "17", "31", "32", "33", "64", "127", "128", "255",
        "256", "1024", "1025", "65535", "65536", "1048575", "1048576", "2147483647", "-2147483648", "4294967295", "0x7fffffffffffffff",
        "0xffffffffffffffff", "0x80000000", "0xFFFF", "4096", "227328", "7", "8"};

    static String mutate(String ptx, Random r) {
        int rounds = 1 + r.nextInt(3);
        for (int k = 0; k < rounds; k++) ptx = once(ptx, r);
        return ptx;
    }

    private static String once(String ptx, Random r) {
        List<String> lines = new ArrayList<>(Arrays.asList(ptx.split("\n", -1)));
        int body = lines.size();
        switch (r.nextInt(6)) {
            case 0, 1 -> { // an immediate changed to an edge value (counts, masks, ids, offsets, sizes)
                Matcher m = NUMBER.matcher(ptx);
                List<int[]> at = new ArrayList<>();
                while (m.find()) at.add(new int[] {m.start(), m.end()});
                if (at.isEmpty()) return ptx;
                int[] s = at.get(r.nextInt(at.size()));
                return ptx.substring(0, s[0]) + NUMBERS[r.nextInt(NUMBERS.length)] + ptx.substring(s[1]);
            }
            case 2 -> lines.remove(r.nextInt(body));
            case 3 -> {
                int i = r.nextInt(body);
                lines.add(i, lines.get(r.nextInt(body)));
            }
            case 4 -> {
                int i = r.nextInt(body);
                int j = r.nextInt(body);
                String t = lines.get(i);
                lines.set(i, lines.get(j));
                lines.set(j, t);
            }
            default -> { // one register operand replaced by another of the kernel's
                Matcher m = REG.matcher(ptx);
                List<int[]> at = new ArrayList<>();
                List<String> regs = new ArrayList<>();
                while (m.find()) {
                    at.add(new int[] {m.start(), m.end()});
                    regs.add(m.group());
                }
                if (at.isEmpty()) return ptx;
                int[] s = at.get(r.nextInt(at.size()));
                return ptx.substring(0, s[0]) + regs.get(r.nextInt(regs.size())) + ptx.substring(s[1]);
            }
        }
        return String.join("\n", lines);
    }
}
