// SPDX-License-Identifier: GPL-3.0-or-later
// Verdict comparison for the live-reload banner and `attrib replay`.
#include "engine/verdict_diff.h"

#include <map>

namespace attrib::engine {

namespace {

std::string statusWithRule(SymptomStatus status, const std::string& rule)
{
    std::string s = toString(status);
    if (status != SymptomStatus::Active && !rule.empty())
        s += " by " + rule;
    return s;
}

std::string rootId(const AnalysisResult& r)
{
    return r.verdict.rootCause ? r.verdict.rootCause->symptomId : std::string();
}

std::string side(const std::string& terminal, const std::string& domain, const std::string& root)
{
    return terminal + "/" + domain + (root.empty() ? std::string() : " (root " + root + ")");
}

}  // namespace

std::string SymptomDiff::describe() const
{
    if (!before)
        return "added (" + statusWithRule(*after, ruleAfter) + ")";
    if (!after)
        return "removed (was " + statusWithRule(*before, ruleBefore) + ")";
    return statusWithRule(*before, ruleBefore) + " -> " + statusWithRule(*after, ruleAfter);
}

bool VerdictDiff::empty() const
{
    return !terminalChanged() && !subDomainChanged() && !rootCauseChanged() && symptoms.empty();
}

std::string VerdictDiff::headline() const
{
    const std::string a = side(terminalBefore, subDomainBefore, rootCauseBefore);
    const std::string b = side(terminalAfter, subDomainAfter, rootCauseAfter);
    if (a == b)
        return (symptoms.empty() ? "unchanged: " : "same verdict ") + b +
            (symptoms.empty() ? std::string() : ", " + std::to_string(symptoms.size()) + " symptom(s) changed");
    return a + " -> " + b;
}

std::vector<std::string> VerdictDiff::lines() const
{
    std::vector<std::string> out{headline()};
    for (const auto& s : symptoms)
        out.push_back(s.id + ": " + s.describe());
    return out;
}

VerdictDiff diffVerdicts(const AnalysisResult& before, const AnalysisResult& after, bool statusRuleChanges)
{
    VerdictDiff d;
    d.terminalBefore = before.verdict.terminalState;
    d.terminalAfter = after.verdict.terminalState;
    d.subDomainBefore = before.verdict.subDomain;
    d.subDomainAfter = after.verdict.subDomain;
    d.rootCauseBefore = rootId(before);
    d.rootCauseAfter = rootId(after);
    std::map<std::string, std::pair<const Symptom*, const Symptom*>> all;
    for (const auto& s : before.symptoms)
        all[s.id].first = &s;
    for (const auto& s : after.symptoms)
        all[s.id].second = &s;
    for (const auto& [id, pair] : all) {
        const auto [b, a] = pair;
        const bool changed = !b || !a || b->status != a->status ||
            (statusRuleChanges && b->status != SymptomStatus::Active && b->statusRule != a->statusRule);
        if (!changed)
            continue;
        SymptomDiff s;
        s.id = id;
        if (b) {
            s.before = b->status;
            s.ruleBefore = b->statusRule;
        }
        if (a) {
            s.after = a->status;
            s.ruleAfter = a->statusRule;
        }
        d.symptoms.push_back(std::move(s));
    }
    return d;
}

std::string verdictLabel(const AnalysisResult& result)
{
    return result.verdict.terminalState + "/" + result.verdict.subDomain;
}

}  // namespace attrib::engine
