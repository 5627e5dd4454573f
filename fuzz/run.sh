#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs libFuzzer targets one after another, then minimizes each corpus into BUILD_DIR/fuzz-min/<target>
# (copy that over fuzz/corpus/<target> to commit it).
# usage: fuzz/run.sh BUILD_DIR SECONDS [target ...]     (targets default to all seven)
# Build first: CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DATTRIB_FUZZ=ON && cmake --build build-fuzz
#              --target fuzz_lines fuzz_journal fuzz_scheduler fuzz_metrics fuzz_bug_report fuzz_archive fuzz_rule_loader
set -eu
build=$1
seconds=$2
shift 2
targets=${*:-lines journal scheduler metrics bug_report archive rule_loader analysis}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
for t in $targets; do
  work="$build/fuzz-work/$t"
  mkdir -p "$work" "$build/fuzz-artifacts/$t" "$build/fuzz-logs/$t"
  echo "== fuzz_$t for ${seconds}s"
  # -jobs=1 runs the fuzzing in one child process whose output goes to fuzz-0.log in the current folder.
  (cd "$build/fuzz-logs/$t" && "$build/bin/fuzz_$t" "$work" "$root/fuzz/corpus/$t" -jobs=1 -workers=1 \
    -max_total_time="$seconds" -max_len=16384 -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
    -artifact_prefix="$build/fuzz-artifacts/$t/") > "$build/fuzz-$t.log" 2>&1 || echo "fuzz_$t stopped"
  cat "$build/fuzz-logs/$t/fuzz-0.log" >> "$build/fuzz-$t.log" 2>/dev/null || true
  grep -E "^#[0-9]+.*(DONE|INITED)|ERROR|SUMMARY|stat::" "$build/fuzz-$t.log" | tail -n 12
  # Every edge kept by the smallest inputs, then new features while ~250 KiB last (all corpora < 2 MB).
  echo "   minimized: $(python3 "$root/fuzz/minimize.py" "$build/bin/fuzz_$t" "$build/fuzz-min/$t" \
    "$root/fuzz/corpus/$t" "$work" --budget-kb 250)"
done
