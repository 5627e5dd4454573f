// SPDX-License-Identifier: GPL-3.0-or-later
// The in-memory trace sink.
#include "engine/trace.h"

namespace attrib::engine {

const char* toString(SymptomChange::Kind kind)
{
    switch (kind) {
    case SymptomChange::Kind::Added: return "added";
    case SymptomChange::Kind::Demoted: return "demoted";
    case SymptomChange::Kind::Promoted: return "promoted";
    case SymptomChange::Kind::Scrubbed: return "scrubbed";
    case SymptomChange::Kind::Updated: return "updated";
    }
    return "added";
}

void Trace::record(TraceStep step)
{
    step.index = static_cast<std::uint32_t>(m_steps.size());
    m_steps.push_back(std::move(step));
}

}  // namespace attrib::engine
