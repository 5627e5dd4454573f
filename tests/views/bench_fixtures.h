// SPDX-License-Identifier: GPL-3.0-or-later
// Rule-file fixtures of the bench's view tests (raw strings live here: moc does not parse them).
#pragma once

namespace attrib::tests {

/// An extractor whose only case expects the wrong capture (line 3 holds the case).
inline constexpr const char* BrokenCaseExtractor = R"json({"kind": "extractors", "rules": [
  {"id": "bench_broken_case", "sources": ["app"], "pattern": "hello (?P<who>\\w+)", "event": "hello",
   "cases": [{"line": "hello world", "fields": {"who": "moon"}}]}]}
)json";

}  // namespace attrib::tests
