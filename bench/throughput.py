#!/usr/bin/env python3
"""Analysis throughput of `attrib analyze` side by side with ripgrep searching the same bundle for the same
patterns (BRIEF §10). Builds a synthetic bundle by repeating the NVLink sample's rank logs with fresh timestamps
until it reaches --mb megabytes, then times both tools (best of --runs) and reports MB/s and peak memory.

Run: python3 bench/throughput.py --attrib build/bin/attrib [--mb 200] [--runs 3] [--keep DIR]
"""
import argparse
import glob
import json
import re
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def patterns():
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "rules", "extractors", "*.json"))):
        with open(path, encoding="utf-8") as fh:
            for rule in json.load(fh).get("rules", []):
                # ripgrep joins all patterns into one regex: named groups would clash
                out.append(re.sub(r"\(\?P<\w+>", "(", rule["pattern"]))
    return out


def make_bundle(dest, megabytes):
    sample = os.path.join(ROOT, "samples", "nvlink-xid149")
    shutil.copytree(sample, dest, ignore=shutil.ignore_patterns("expected.json", "LESSON.md"))
    ranks = sorted(glob.glob(os.path.join(dest, "nodes", "*", "rank-*.log")))
    body = {p: open(p, encoding="utf-8").read() for p in ranks}
    size = sum(os.path.getsize(p) for p in glob.glob(os.path.join(dest, "**", "*"), recursive=True) if os.path.isfile(p))
    target = megabytes * 1024 * 1024
    while size < target:
        for p, text in body.items():
            with open(p, "a", encoding="utf-8") as fh:
                fh.write(text)
            size += len(text)
            if size >= target:
                break
    return size


def timed(cmd):
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if proc.returncode not in (0, 1):
        sys.exit(f"{cmd[0]} failed: {proc.stderr.decode()[:300]}")
    return elapsed, max(peak, before)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--attrib", default=os.path.join(ROOT, "build", "bin", "attrib"))
    ap.add_argument("--mb", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="attrib-bench-")
    bundle = os.path.join(work, "bundle")
    if not os.path.isdir(bundle):
        make_bundle(bundle, a.mb)
    size = sum(os.path.getsize(p) for p in glob.glob(os.path.join(bundle, "**", "*"), recursive=True) if os.path.isfile(p))
    pat_file = os.path.join(work, "patterns.txt")
    with open(pat_file, "w", encoding="utf-8") as fh:
        fh.write("\n".join(patterns()) + "\n")
    results = {}
    tools = {"attrib": [a.attrib, "analyze", bundle, "--json"]}
    if shutil.which("rg"):
        tools["ripgrep"] = ["rg", "--threads", "1", "-c", "-f", pat_file, bundle]
    for name, cmd in tools.items():
        best = min(timed(cmd)[0] for _ in range(a.runs))
        results[name] = best
    peak_kb = timed(tools["attrib"])[1]
    mb = size / 1e6
    print(f"bundle: {mb:.1f} MB, {len(patterns())} patterns")
    for name, secs in results.items():
        print(f"{name:8s} {secs:7.2f} s  {mb / secs:8.1f} MB/s")
    print(f"attrib peak RSS: {peak_kb / 1024:.1f} MiB ({peak_kb * 1024 / size * 100:.1f}% of the bundle)")
    if not a.keep:
        shutil.rmtree(work)
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
