# SPDX-License-Identifier: GPL-3.0-or-later
# The two commands of the README: `make run` and `make test`. Both install what is missing first.
BUILD ?= build
JOBS ?= $(shell nproc)
SAMPLE ?= samples/nvlink-xid149

.PHONY: all deps configure build run test bench package clean asan tsan clang tidy

all: build

deps:
	@./scripts/install-deps

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ] && [ -x $(BUILD)/bin/attribution-workbench ]; then \
	  $(BUILD)/bin/attribution-workbench $(SAMPLE); \
	else \
	  $(BUILD)/bin/attrib analyze $(SAMPLE); \
	fi

# The package tests (cpack, then the installed programs; minutes on a busy machine) run with `make package`.
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE 'bench|package'

# The Debian package in $(BUILD)/package, checked as a user meets it (installer/check-package: dpkg -x into a
# temporary root, the installed programs on an installed sample, AppStream, and lintian when installed).
package: build
	cd $(BUILD) && ctest --output-on-failure -L package

bench: build
	cd $(BUILD) && ctest --output-on-failure -L bench

# AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer) over the suite of `make test`. Every report,
# from a test or from a program a test starts (attrib, store_writer), goes to build-asan/sanitizer-reports/ and
# fails the run, also where a test expects a failure exit (WILL_FAIL) or captures stderr; UBSan stops at its
# first report (halt_on_error) instead of printing it and going on.
SAN_REPORTS = $(CURDIR)/build-asan/sanitizer-reports
asan: deps
	cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DATTRIB_SANITIZE=ON
	cmake --build build-asan -j $(JOBS)
	rm -rf $(SAN_REPORTS) && mkdir -p $(SAN_REPORTS)
	cd build-asan && ASAN_OPTIONS=log_path=$(SAN_REPORTS)/asan LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$(SAN_REPORTS)/ubsan \
	  ctest --output-on-failure -j $(JOBS) -LE 'bench|package'
	@if [ -n "$$(ls -A $(SAN_REPORTS))" ]; then head -n 40 $(SAN_REPORTS)/*; echo "asan: reports in $(SAN_REPORTS)"; exit 1; fi

# ThreadSanitizer over the threaded parts: the job runner's users (workbench job controller, rule bench, debugger
# step state, deferred views, evidence source, timeline opening), the parallel analysis (attrib --jobs), the
# Service and the engine tests. Qt and GLib from Debian are not built with TSan, so TSan sees races inside them
# (their futex-based locks are invisible to it): every report is collected (no halt, no exit code) and
# scripts/tsan-triage fails the run on a report with an access in the project's own code, and lists the rest.
TSAN_TESTS = tst_job_controller tst_rule_bench tst_debugger_async tst_deferred_views tst_file_evidence_source \
  tst_timeline_opening tst_parallel_analysis tst_service tst_catalog tst_clock_skew tst_pipeline tst_symptom_graph \
  tst_trace_replay tst_verdict_diff
TSAN_REPORTS = $(CURDIR)/build-tsan/sanitizer-reports
tsan: deps
	cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DATTRIB_TSAN=ON
	cmake --build build-tsan -j $(JOBS) --target attrib $(TSAN_TESTS)
	rm -rf $(TSAN_REPORTS) && mkdir -p $(TSAN_REPORTS)
	cd build-tsan && TSAN_OPTIONS=halt_on_error=0:exitcode=0:die_after_fork=0:log_path=$(TSAN_REPORTS)/tsan QT_QPA_PLATFORM=offscreen \
	  ctest --output-on-failure -R '^($(shell echo $(TSAN_TESTS) | tr ' ' '|'))$$'
	scripts/tsan-triage $(TSAN_REPORTS)

# The whole tree with clang++ and -Werror (Debug: compiles fastest; clang's warnings come from its front end, so
# the optimisation level does not change them). -DATTRIB_FUZZ=ON adds the libFuzzer targets, which need clang, so
# fuzz/ is compiled too and is in the compile commands that `make tidy` reads.
clang: deps
	cmake -S . -B build-clang -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ -DATTRIB_FUZZ=ON
	cmake --build build-clang -j $(JOBS)

# clang-tidy (.clang-tidy's checks) over every project .cpp with the clang tree's compile commands. Minutes per
# core, so it is not part of `make test`; docs/checks.md has the figures.
tidy: clang
	scripts/check-tidy -B build-clang -j $(JOBS)

clean:
	rm -rf $(BUILD)
