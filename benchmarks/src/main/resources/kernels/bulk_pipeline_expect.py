#!/usr/bin/env python3
"""The expected output of bulk_pipeline.cu, computed from its formula (not from the interpreter).

Prints the "out" list of bulk_pipeline_launch.json's expect block:
    python3 bulk_pipeline_expect.py [GRID TILES IN_TILES]   (defaults 2 1024 64)
"""
import json
import sys

grid, tiles, in_tiles = (int(a) for a in sys.argv[1:4]) if len(sys.argv) > 3 else (2, 1024, 64)
inp = list(range(in_tiles * 64))  # init "iota"
out = []
for b in range(grid):
    for c in range(64):
        acc = c
        for k in range(tiles):
            src = (b * 7 + k) % in_tiles
            x, y = inp[src * 64 + c], inp[src * 64 + 63 - c]
            acc = (acc * 3 + (x ^ y) + k) & 0xFFFFFFFF
        out.append(acc)
print(json.dumps(out))
