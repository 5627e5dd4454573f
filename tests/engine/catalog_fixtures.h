// SPDX-License-Identifier: GPL-3.0-or-later
// Broken rule files for tst_catalog (kept out of the moc-parsed test file: moc does not read raw strings).
#pragma once

namespace fixtures {

inline constexpr const char* BrokenRegexRules = R"json({
  "kind": "extractors",
  "rules": [
    {"id": "good_rule", "sources": ["app"], "pattern": "all is (?P<what>fine)", "event": "x",
     "cases": [{"line": "all is fine", "fields": {"what": "fine"}}]},
    {"id": "bad_rule", "sources": ["app"],
     "pattern": "unclosed (group",
     "event": "x", "cases": [{"line": "unclosed (group"}]}
  ]
}
)json";

// JSON's `\n` escape puts a raw newline into the pattern (the regex escape is written `\\n`); a tab likewise.
inline constexpr const char* RawControlRules = R"json({
  "kind": "extractors",
  "rules": [
    {"id": "kept_rule", "sources": ["app"], "pattern": "first[^\\n]*second", "event": "x",
     "cases": [{"line": "first and second"}]},
    {"id": "newline_rule", "sources": ["app"], "pattern": "first[^\n]*second", "event": "x",
     "cases": [{"line": "first and second"}]},
    {"id": "tab_exclude_rule", "sources": ["app"], "pattern": "third", "exclude": "not\there", "event": "x",
     "cases": [{"line": "third"}]}
  ]
}
)json";

inline constexpr const char* WrongCaseRules = R"json({"kind": "extractors", "rules": [
  {"id": "wrong_case", "sources": ["kernel"], "pattern": "disk (?P<dev>\\w+) failed", "event": "x",
   "cases": [{"line": "disk sda failed", "fields": {"dev": "sdb"}}]}
]})json";

inline constexpr const char* GhostSymptomRules = R"json({"kind": "extractors", "rules": [
  {"id": "ghost", "sources": ["app"], "pattern": "boo", "event": "x", "symptom": "not_registered",
   "cases": [{"line": "boo"}]}]})json";

inline constexpr const char* CaseSourceRules = R"json({"kind": "extractors", "rules": [
  {"id": "sourced", "sources": ["app"], "pattern": "disk (?P<dev>\\w+) failed", "event": "x",
   "cases": [{"line": "disk sda failed", "source": "https://github.com/example/project/issues/1"}]},
  {"id": "bad_source", "sources": ["app"], "pattern": "disk (?P<dev>\\w+) lost", "event": "x",
   "cases": [{"line": "disk sda lost", "fields": {"dev": "sda"},
              "source": "a forum post"}]}
]})json";

}  // namespace fixtures
