# SPDX-License-Identifier: GPL-3.0-or-later
"""Helpers shared by the benchmark scripts (bench/run, bench/storm): timing under /usr/bin/time -v, sizes, spreads,
and whether a verdict names the culprit `attrib gen` planted."""
import os
import re
import statistics
import subprocess
import sys


def timed(cmd, stdout=subprocess.DEVNULL):
    """Runs cmd under /usr/bin/time -v; returns (wall seconds, peak RSS KiB, exit code, stdout)."""
    proc = subprocess.run(["/usr/bin/time", "-v"] + cmd, stdout=subprocess.PIPE if stdout is None else stdout,
                          stderr=subprocess.PIPE, text=True)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", proc.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    if not wall or not rss:
        sys.exit(f"cannot read /usr/bin/time output of {cmd[0]}: {proc.stderr[-400:]}")
    seconds = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
    return seconds, int(rss.group(1)), proc.returncode, proc.stdout


def bundle_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)


def spread(values):
    return min(values), statistics.median(values), max(values)


def names_planted(planted_line, verdict):
    """True when the printed verdict names the terminal state, sub-domain and culprit of `planted: ...`."""
    want = re.match(r"planted: (\S+) / (\S+) on (.*)", planted_line or "")
    if not want:
        return False
    where = want.group(3)  # "node-0598 GPU 6", "node-07" or "the job"
    return f"{want.group(1)} / {want.group(2)}" in verdict and (where == "the job" or where in verdict)
