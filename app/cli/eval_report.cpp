// SPDX-License-Identifier: GPL-3.0-or-later
// attrib eval's output.
#include "app/cli/eval_report.h"

#include "engine/safe_text.h"

#include <iomanip>
#include <sstream>

namespace attrib::cli {

namespace {

std::string pct(int part, int whole)
{
    std::ostringstream s;
    s << part << "/" << whole;
    if (const auto p = engine::percent(part, whole))
        s << " (" << std::fixed << std::setprecision(1) << *p << "%)";
    else
        s << " (n/a)";
    return s.str();
}

std::string truthText(const engine::CaseScore& s)
{
    const auto& t = s.truth;
    return (t.terminalState.empty() ? "-" : t.terminalState) + "/" + (t.subDomain.empty() ? "-" : t.subDomain) + "/" +
        t.culpritNode.value_or("-");
}

const char* resultText(const engine::CaseScore& s)
{
    if (s.passed())
        return "pass";
    return s.error ? "ERROR" : "FAIL";
}

void printCases(std::ostream& out, const std::vector<engine::CaseScore>& scores, bool verbose)
{
    out << std::left << std::setw(52) << "bundle" << std::setw(52) << "expected (state/domain/node)" << std::setw(52)
        << "got"
        << "result\n";
    for (const auto& s : scores) {
        // Case names, truths and verdicts come from the corpus and the evidence: shown terminal-safe.
        out << std::setw(52) << engine::terminalSafe(s.name + (s.truth.heldout ? " [h]" : "")) << std::setw(52)
            << engine::terminalSafe(truthText(s)) << std::setw(52)
            << engine::terminalSafe(s.gotTerminal + "/" + s.gotSubDomain + "/" + s.gotNode) << resultText(s) << "\n";
        if (verbose || !s.passed())
            for (const auto& f : s.failures)
                out << "    " << engine::terminalSafe(f) << "\n";
        if (s.skippedTextFiles > 0)
            out << "    " << s.skippedTextFiles << " readable text file(s) reported skipped\n";
    }
}

void printTotals(std::ostream& out, const char* label, const engine::EvalSummary& sum)
{
    out << label << ": " << sum.cases << " cases, " << sum.errors << " errors; sub-domain "
        << pct(sum.subDomainOk, sum.cases) << ", terminal state " << pct(sum.terminalOk, sum.cases) << ", culprit node "
        << pct(sum.nodeOk, sum.nodeScored) << "; no symptom " << sum.noSymptom << ", skipped text files "
        << sum.skippedTextFiles << ", app/config called hardware " << sum.hardFailures << "\n";
}

void printDomains(std::ostream& out, const engine::EvalSummary& sum)
{
    out << "\n"
        << std::left << std::setw(16) << "truth domain" << std::setw(8) << "cases" << std::setw(20) << "sub-domain ok"
        << "culprit node\n";
    for (const auto& [domain, row] : sum.perDomain)
        out << std::setw(16) << domain << std::setw(8) << row.cases << std::setw(20) << pct(row.subDomainOk, row.cases)
            << row.nodeOk << "/" << row.nodeScored << "\n";
    out << "\nconfusion (truth domain: predicted domain x count)\n";
    for (const auto& [truth, predicted] : sum.confusion) {
        out << "  " << std::setw(14) << truth << ":";
        for (const auto& [domain, count] : predicted)
            out << " " << domain << " x" << count;
        out << "\n";
    }
}

}  // namespace

nlohmann::ordered_json evalFigures(const std::vector<engine::CaseScore>& scores)
{
    nlohmann::ordered_json j;
    j["all"] = engine::summaryJson(engine::summarize(scores, engine::HeldoutFilter::All));
    j["heldout"] = engine::summaryJson(engine::summarize(scores, engine::HeldoutFilter::Only));
    j["heldout_unseen"] = engine::summaryJson(engine::summarize(scores, engine::HeldoutFilter::Unseen));
    return j;
}

void printEvalText(std::ostream& out, const std::vector<engine::CaseScore>& scores, bool verbose,
                   const std::vector<std::string>& floorMisses)
{
    printCases(out, scores, verbose);
    const auto all = engine::summarize(scores, engine::HeldoutFilter::All);
    const auto heldout = engine::summarize(scores, engine::HeldoutFilter::Only);
    printDomains(out, all);
    out << "\n";
    printTotals(out, "all", all);
    printTotals(out, "heldout", heldout);
    printTotals(out, "heldout unseen", engine::summarize(scores, engine::HeldoutFilter::Unseen));
    out << all.passed << " passed, " << all.cases - all.passed << " failed\n";
    for (const auto& m : floorMisses)
        out << "below floor: " << m << "\n";
}

void printEvalJson(std::ostream& out, const std::vector<engine::CaseScore>& scores,
                   const nlohmann::ordered_json& figures, const std::vector<std::string>& floorMisses)
{
    nlohmann::ordered_json j = figures;
    nlohmann::ordered_json cases = nlohmann::ordered_json::array();
    for (const auto& s : scores)
        cases.push_back(engine::caseJson(s));
    j["cases"] = cases;
    j["floor_misses"] = floorMisses;
    out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace attrib::cli
