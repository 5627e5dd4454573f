// SPDX-License-Identifier: GPL-3.0-or-later
// Text and Markdown reports built from one neutral outline, so both say the same thing.
#include "engine/report.h"

#include "engine/json_util.h"
#include "engine/pipeline.h"
#include "engine/safe_text.h"

#include <cstdio>
#include <sstream>

namespace attrib::engine {

std::string evidenceLocation(const AnalysisResult& r, std::uint64_t observation)
{
    const Observation* o = r.observation(observation);
    if (!o || o->source.file >= r.files.size())
        return {};
    return r.files[o->source.file].path + ":" + std::to_string(o->source.line);
}

namespace {

/// One labelled line of the report. `value` and `code` may hold names and log text: every renderer neutralises
/// them for its format (`code` is quoted log text).
struct Row {
    Row(std::string l, std::string v, std::string c = {})
        : label(std::move(l))
        , value(std::move(v))
        , code(std::move(c))
    {
    }
    std::string label;
    std::string value;
    std::string code;
};

std::string gpuText(int gpu)
{
    return gpu >= 0 ? " GPU " + std::to_string(gpu) : std::string();
}

/// " at TIME", or ", time unknown".
std::string timeText(const AnalysisResult& r, const std::string& symptomId, TimeNs time)
{
    return time == NoTime ? std::string(", time unknown") : " at " + formatTime(time, r.timeSourceOf(symptomId));
}

/// " on NODE GPU n at TIME", with unknowns in words (an empty node or time would read "on  at "). A job-wide
/// symptom (a time limit, a launch that does not match its world) concerns the job, not a node it failed to name.
std::string placeAndTime(const AnalysisResult& r, const std::string& symptomId, const std::string& node, int gpu,
                         TimeNs time)
{
    const Symptom* s = r.symptom(symptomId);
    const std::string shown = node.empty() && s != nullptr ? shownNode(*s) : node;
    const std::string place = !shown.empty()              ? " on " + shown
        : s != nullptr && s->attrs.count("job_wide") != 0 ? std::string(" for the whole job")
                                                          : std::string(" on an unknown node");
    return place + gpuText(gpu) + timeText(r, symptomId, time);
}

std::vector<Row> verdictRows(const AnalysisResult& r)
{
    const Verdict& v = r.verdict;
    std::vector<Row> rows;
    rows.push_back({"Verdict", v.terminalState + " / " + v.subDomain});
    if (v.rootCause) {
        const RootCause& rc = *v.rootCause;
        // One failure on several nodes names none of them; its candidates list them.
        const bool several = rc.node.empty() && v.candidates.size() > 1 && !candidatesAreReadings(v);
        rows.push_back({"Root cause",
                        several ? rc.symptom + " on " + std::to_string(v.candidates.size()) +
                                " nodes (the candidates below)" + timeText(r, rc.symptomId, rc.time)
                                : rc.symptom + placeAndTime(r, rc.symptomId, rc.node, rc.gpu, rc.time)});
        rows.push_back({"Summary", rc.summary});
        if (const Observation* o = r.observation(rc.decisiveObservation))
            rows.push_back({"Evidence", evidenceLocation(r, o->id), o->text});
        rows.push_back({"Chosen by", rc.rule});
    }
    const bool readings = candidatesAreReadings(v);
    for (const auto& c : v.candidates)
        rows.push_back(
            readings
                ? Row{"Reading", c.terminalState + " / " + c.subDomain + ": " + c.summary}
                : Row{"Candidate", c.symptom + placeAndTime(r, c.symptomId, c.node, c.gpu, c.time) + ": " + c.summary});
    if (!v.candidates.empty())
        rows.push_back({"Would separate", v.candidates.front().separatedBy});
    rows.push_back({"Action", v.action.action + (v.action.target.empty() ? "" : "  [" + v.action.target + "]")});
    for (const auto& lead : v.leads)  // unknown verdicts only: where an engineer could start reading
        rows.push_back({"Lead", lead.file + ":" + std::to_string(lead.line), lead.text});
    std::string nodes;
    for (const auto& n : v.affectedNodes)
        nodes += (nodes.empty() ? "" : ", ") + n;
    rows.push_back({"Affected nodes", nodes.empty() ? "-" : nodes});
    return rows;
}

std::string coverageLine(const CollectorCoverage& c)
{
    std::ostringstream s;
    s << toString(c.kind) << ": " << c.files.size() << " file(s), " << c.nodes.size() << " node(s), " << c.lines
      << " lines, " << c.skipped << " skipped, " << toString(c.status);
    return s.str();
}

}  // namespace

std::string reportText(const AnalysisResult& r)
{
    std::ostringstream out;
    std::string head = "Bundle " + r.bundlePath;
    if (!r.context.workloadId.empty())
        head += " (workload " + r.context.workloadId + ", " + r.context.scheduler + ", " +
            std::to_string(r.context.nodes.size()) + " nodes" +
            (r.context.platform.empty() ? "" : ", " + r.context.platform) + ")";
    out << terminalSafe(head) << "\n\n";
    for (const auto& row : verdictRows(r)) {
        std::string label = row.label + ":";
        label.resize(16, ' ');
        out << label << terminalSafe(row.code.empty() ? row.value : row.value + "  " + row.code) << "\n";
    }
    std::size_t explained = 0;
    for (const auto& s : r.symptoms)
        explained += s.status != SymptomStatus::Active;
    out << "\nExplained away (" << explained << " of " << r.symptoms.size() << " symptoms):\n";
    for (const auto& s : r.symptoms) {
        if (s.status == SymptomStatus::Active)
            continue;
        out << "  " << toString(s.status) << "  "
            << terminalSafe(s.id + " x" + std::to_string(s.count) + "  by " + s.statusRule + ": " + s.statusReason)
            << "\n";
    }
    out << "\nCoverage:\n";
    for (const auto& c : r.coverage) {
        out << "  " << terminalSafe(coverageLine(c)) << "\n";
        for (std::size_t i = 0; i < c.errors.size() && i < 8; ++i)
            out << "    ! " << terminalSafe(c.errors[i]) << "\n";
        if (c.errors.size() > 8)
            out << "    ! ... " << c.errors.size() - 8 << " more (--json lists every one)\n";
    }
    for (const auto& o : r.clockOffsets) {
        char buf[96];
        std::snprintf(buf, sizeof buf, " offset %+.3f s +/- %.3f s%s (", static_cast<double>(o.offset) / 1e9,
                      static_cast<double>(o.uncertainty) / 1e9, o.applied ? ", applied" : ", within jitter");
        out << "  clock: " << terminalSafe(o.node) << buf << terminalSafe(o.anchor) << ")\n";
    }
    for (const auto& d : r.diagnostics)
        out << "  catalog: " << terminalSafe(d) << "\n";
    return out.str();
}

std::string reportMarkdown(const AnalysisResult& r)
{
    std::ostringstream out;
    out << "## Attribution: " << markdownText(r.verdict.terminalState + " / " + r.verdict.subDomain) << "\n\n";
    out << "| | |\n|---|---|\n";
    out << "| Bundle | " << markdownCode(r.bundlePath) << " |\n";
    if (!r.context.workloadId.empty())
        out << "| Workload | " << markdownText(r.context.workloadId + " (" + r.context.scheduler + ")") << " |\n";
    for (const auto& row : verdictRows(r)) {
        out << "| " << row.label << " | " << markdownText(row.value);
        if (!row.code.empty())
            out << " " << markdownCode(row.code);
        out << " |\n";
    }
    out << "\n### Symptoms\n\n| status | symptom | count | rule | reason |\n|---|---|---|---|---|\n";
    for (const auto& s : r.symptoms)
        out << "| " << toString(s.status) << " | " << markdownText(s.id) << " | " << s.count << " | "
            << markdownText(s.statusRule) << " | " << markdownText(s.statusReason) << " |\n";
    out << "\n### Coverage\n\n";
    for (const auto& c : r.coverage) {
        out << "- " << markdownText(coverageLine(c)) << "\n";
        for (const auto& e : c.errors)
            out << "  - " << markdownText(e) << "\n";
    }
    out << "\n_Engine "
        << markdownText(r.engine.version + ", catalog " + r.engine.catalogVersion + " (" + r.engine.catalogHash + ")")
        << "_\n";
    return out.str();
}

}  // namespace attrib::engine
