// SPDX-License-Identifier: GPL-3.0-or-later
// PythonExceptionOrigin (early phase). The extractor `python_exception` matches the final line of every Python
// traceback (`ValueError: ...`) as a context event. This rule decides which of them raise the generic
// `app_exception` symptom:
//  - a line that a more specific extractor also matched (CUDA OOM, ENOSPC, FileNotFoundError, NCCL errors,
//    uncorrectable ECC/NVLink, ...) yields to that symptom: specific beats generic;
//  - an exception type or message that is an effect of another failure (DistBackendError, ChildFailedError,
//    SignalException, "NCCL communicator was aborted", ...) raises nothing: the other failure has its own symptom;
//  - everything else is the application's own exception.
// Type and message lists live in the rule's config (rules/early/python_exceptions.json).
#include "rules/cpp/python_exceptions.h"
#include "rules/cpp/early_step.h"

#include "engine/json_util.h"
#include "engine/pipeline.h"

#include <set>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

namespace {

/// One decision category, reported as a single trace step per node.
struct Tally {
    std::size_t count = 0;
    std::vector<std::uint64_t> events;
    std::set<std::string> why;
};

class PythonExceptionOrigin final : public CodeRule {
public:
    explicit PythonExceptionOrigin(const json& c)
        : m_event(c.value("event", std::string("python_exception")))
        , m_symptom(c.value("symptom", std::string("app_exception")))
        , m_effectTypes(stringsAt(c, "effect_types"))
        , m_effectMessages(stringsAt(c, "effect_messages"))
    {
    }

    std::string id() const override { return "PythonExceptionOrigin"; }
    std::string description() const override
    {
        return "Raises app_exception for Python exceptions that are neither matched by a more specific rule nor "
               "effects of another failure (DistBackendError, ChildFailedError, signals, aborted communicators)";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext&, const Catalog&,
                           TraceSink& trace) const override
    {
        std::map<std::uint64_t, std::string> specific;  // observation -> symptom a specific rule raised on it
        for (const auto& e : events)
            if (e.type != m_event && !e.symptom.empty())
                for (auto obs : e.observations)
                    specific.emplace(obs, e.symptom);
        std::map<std::pair<std::string, TraceAction>, Tally> tallies;  // (node, decision)
        for (auto& e : events) {
            if (e.type != m_event)
                continue;
            std::string why;
            const TraceAction decision = classify(e, specific, why);
            if (decision == TraceAction::Raise)
                e.symptom = m_symptom;
            Tally& t = tallies[{e.node, decision}];
            ++t.count;
            if (t.events.size() < 50)
                t.events.push_back(e.id);
            if (t.why.size() < 8)
                t.why.insert(why);
        }
        for (const auto& [key, t] : tallies)
            record(key.first, key.second, t, trace);
        return events;
    }

private:
    TraceAction classify(const Event& e, const std::map<std::uint64_t, std::string>& specific, std::string& why) const
    {
        for (auto obs : e.observations)
            if (auto it = specific.find(obs); it != specific.end()) {
                why = it->second;
                return TraceAction::Specific;
            }
        const std::string type = eventAttr(e, "exc");
        for (const auto& t : m_effectTypes)
            if (type == t ||
                (type.size() > t.size() && type.compare(type.size() - t.size(), t.size(), t) == 0 &&
                 type[type.size() - t.size() - 1] == '.')) {
                why = type;
                return TraceAction::Effect;
            }
        const std::string msg = eventAttr(e, "msg");
        for (const auto& m : m_effectMessages)
            if (msg.find(m) != std::string::npos) {
                why = type + ": ..." + m + "...";
                return TraceAction::Effect;
            }
        why = type;
        return TraceAction::Raise;
    }

    void record(const std::string& node, TraceAction decision, const Tally& t, TraceSink& trace) const
    {
        TraceStep step = earlyStep(id(), decision);
        step.node = node;
        step.fired = decision == TraceAction::Raise;
        std::string why;
        for (const auto& w : t.why)
            why += (why.empty() ? "" : ", ") + w;
        const std::string n = std::to_string(t.count) + " exception line(s) on " + (node.empty() ? "?" : node);
        if (decision == TraceAction::Raise)
            step.summary = n + " raise " + m_symptom + ": " + why;
        else if (decision == TraceAction::Specific)
            step.summary = n + " left to the more specific symptom(s) on the same line: " + why;
        else
            step.summary = n + " are effects of another failure: " + why;
        step.details["exceptions"] = why;
        step.events = t.events;
        trace.record(std::move(step));
    }

    std::string m_event;
    std::string m_symptom;
    std::vector<std::string> m_effectTypes;
    std::vector<std::string> m_effectMessages;
};

}  // namespace

std::unique_ptr<CodeRule> makePythonExceptionOrigin(const json& config)
{
    return std::make_unique<PythonExceptionOrigin>(config);
}

}  // namespace attrib::rules
