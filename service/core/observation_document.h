// SPDX-License-Identifier: GPL-3.0-or-later
// The Service's input: an ExecutionContext plus observations (docs/observations.md, "observations.jsonl") as a
// JSON object {"context": {...}, "observations": [...]}, a JSON array, or NDJSON. Parsing checks every field the
// importer reads and names the first wrong one; the result is the canonical observations.jsonl text the engine
// analyses and the store keeps. Clients build the same text from a local analysis (exportObservations).
#pragma once

#include "engine/verdict.h"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace attrib::service {

/// A request body that cannot be analysed; `field` names where ("observations[3].source", "line 4: time").
class InputError : public std::runtime_error {
public:
    InputError(std::string field, const std::string& message)
        : std::runtime_error(field + ": " + message)
        , m_field(std::move(field))
    {
    }
    const std::string& field() const { return m_field; }

private:
    std::string m_field;
};

/// Canonical observations.jsonl text: a context line first (when given), then one observation a line.
struct ObservationDocument {
    std::string ndjson;
    std::size_t observations = 0;
    bool hasContext = false;
};

/// Parses and checks a request body; throws InputError naming the first wrong field. `maxObservations` bounds
/// the count (0 = unbounded).
ObservationDocument parseObservationBody(std::string_view body, std::size_t maxObservations = 0);

/// The observations of an analysis as observations.jsonl text (context line first; only the lines rules
/// matched, which is what the analysis keeps), so a Service can analyse what a local analysis saw.
ObservationDocument exportObservations(const engine::AnalysisResult& result);

}  // namespace attrib::service
