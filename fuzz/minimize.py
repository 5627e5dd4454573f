#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Shrinks a libFuzzer corpus to a small committed one: every coverage edge kept by the smallest inputs that reach
it (greedy set cover over libFuzzer's merge control file), then inputs that add new features while the budget lasts.

usage: fuzz/minimize.py FUZZ_BINARY OUT_DIR IN_DIR [IN_DIR ...] [--budget-kb N]
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile


def parse_control(path):
    files, sizes, cov, ft = [], {}, {}, {}
    with open(path) as f:
        count = int(f.readline())
        f.readline()
        for _ in range(count):
            files.append(f.readline().rstrip("\n"))
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "STARTED":
                sizes[int(parts[1])] = int(parts[2])
            elif parts[0] == "COV":
                cov[int(parts[1])] = set(map(int, parts[2:]))
            elif parts[0] == "FT":
                ft[int(parts[1])] = set(map(int, parts[2:]))
    return files, sizes, cov, ft


def main():
    args = sys.argv[1:]
    budget = 256 * 1024
    if "--budget-kb" in args:
        i = args.index("--budget-kb")
        budget = int(args[i + 1]) * 1024
        del args[i:i + 2]
    binary, out, inputs = args[0], args[1], args[2:]
    with tempfile.TemporaryDirectory() as tmp:
        control = os.path.join(tmp, "control")
        os.makedirs(os.path.join(tmp, "unused"))
        subprocess.run([binary, "-merge=1", "-merge_control_file=" + control, os.path.join(tmp, "unused")] + inputs,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        files, _, cov, ft = parse_control(control)
    size = {i: os.path.getsize(p) for i, p in enumerate(files) if os.path.exists(p)}
    order = sorted(size, key=lambda i: (size[i], files[i]))
    keep, edges, features, total = [], set(), set(), 0
    for i in order:  # every edge, by the smallest inputs
        if cov.get(i, set()) - edges:
            keep.append(i)
            edges |= cov[i]
            features |= ft.get(i, set())
            total += size[i]
    for i in order:  # then new features while the budget lasts
        if i in keep or total + size[i] > budget:
            continue
        if ft.get(i, set()) - features:
            keep.append(i)
            features |= ft[i]
            total += size[i]
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for i in keep:
        data = open(files[i], "rb").read()
        with open(os.path.join(out, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    print(f"{len(keep)} inputs, {total // 1024} KiB, {len(edges)} edges, {len(features)} features")


if __name__ == "__main__":
    main()
