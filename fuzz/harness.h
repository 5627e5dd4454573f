// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz entry points: one per parser family, the archive reader and the rule loader. The libFuzzer targets
// (fuzz_*.cpp) call them; tests/importers/tst_fuzz_corpus replays every committed corpus file through them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace attrib::fuzz {

/// Sniffing plus every line format (dmesg, syslog, RFC 5424, app, slurm, fabric manager), with joining.
int lineParsers(const std::uint8_t* data, std::size_t size);
/// journalctl -o json and -o export.
int journal(const std::uint8_t* data, std::size_t size);
/// sacct --parsable2, sacct --json, Kubernetes events, Kueue workloads.
int scheduler(const std::uint8_t* data, std::size_t size);
/// Prometheus text, metric CSV, observations.jsonl.
int metrics(const std::uint8_t* data, std::size_t size);
/// nvidia-bug-report logs.
int bugReport(const std::uint8_t* data, std::size_t size);
/// An archive or compressed file: listing, reading every member, decompression limits.
int archive(const std::uint8_t* data, std::size_t size);
/// A rule file loaded as a catalog (all kinds, inline cases evaluated).
int ruleLoader(const std::uint8_t* data, std::size_t size);

/// The whole analysis (importers, every C++ rule, refine, outcome, verdict and trace JSON) of a one-file bundle.
int analysis(const std::uint8_t* data, std::size_t size);

/// The entry point of a corpus folder name ("lines", "journal", ...), or nullptr.
using Entry = int (*)(const std::uint8_t*, std::size_t);
Entry entryFor(const std::string& target);

}  // namespace attrib::fuzz
