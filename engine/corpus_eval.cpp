// SPDX-License-Identifier: GPL-3.0-or-later
// Case scoring, summaries and floors for `attrib eval`.
#include "engine/corpus_eval.h"

#include "engine/expectation.h"
#include "engine/host_name.h"
#include "engine/verdict.h"

#include <algorithm>
#include <stdexcept>

namespace attrib::engine {

namespace {

bool known(const std::vector<std::string>& vocabulary, const std::string& value)
{
    return std::find(vocabulary.begin(), vocabulary.end(), value) != vocabulary.end();
}

std::string vocabularyString(const nlohmann::json& expected, const char* key, const std::vector<std::string>& vocab)
{
    if (!expected.contains(key) || expected[key].is_null())
        return {};
    if (!expected[key].is_string() || !known(vocab, expected[key].get<std::string>()))
        throw std::runtime_error(std::string(key) + ": " + expected[key].dump() + " is not in the vocabulary");
    return expected[key].get<std::string>();
}

bool flag(const nlohmann::json& expected, const char* key)
{
    if (!expected.contains(key))
        return false;
    if (!expected[key].is_boolean())
        throw std::runtime_error(std::string(key) + ": expected true or false, got " + expected[key].dump());
    return expected[key].get<bool>();
}

std::string text(const nlohmann::ordered_json& j, const char* key)
{
    if (!j.is_object() || !j.contains(key) || !j[key].is_string())
        return "-";
    return j[key].get<std::string>();
}

/// The verdict's root-cause node ("-" when there is none).
std::string rootNode(const nlohmann::ordered_json& verdict)
{
    return verdict.contains("root_cause") ? text(verdict["root_cause"], "node") : "-";
}

bool fitsTruth(const CaseTruth& truth, const std::string& gotTerminal, const std::string& gotSubDomain)
{
    if (!truth.terminalState.empty() && terminalFamily(truth.terminalState) != terminalFamily(gotTerminal))
        return false;
    if (truth.subDomain.empty())
        return true;
    return gotSubDomain == truth.subDomain || known(truth.acceptable, gotSubDomain);
}

/// Corpus-format comparison: the sub-domain fit and the culprit node; other sample keys still compared.
void compareCorpusCase(const nlohmann::json& expected, const nlohmann::ordered_json& verdict, CaseScore& s)
{
    if (!s.subDomainOk)
        s.failures.push_back("sub_domain: expected " + s.truth.terminalState + "/" + s.truth.subDomain +
                             (s.truth.acceptable.empty() ? "" : " (or an acceptable one)") + " but got " +
                             s.gotTerminal + "/" + s.gotSubDomain);
    if (s.nodeScored && !s.nodeOk)
        s.failures.push_back("culprit node: expected " + *s.truth.culpritNode + " but got " + s.gotNode);
    nlohmann::json rest = expected;
    rest.erase("terminal_state");
    rest.erase("sub_domain");
    for (auto& f : compareWithExpected(verdict, rest))
        s.failures.push_back(std::move(f));
}

}  // namespace

TerminalFamily terminalFamily(std::string_view state)
{
    if (state == "hardware_failure" || state == "infrastructure_failure")
        return TerminalFamily::Infrastructure;
    if (state == "application_failure" || state == "user_error")
        return TerminalFamily::Application;
    if (state == "timeout")
        return TerminalFamily::Timeout;
    if (state == "cancelled" || state == "preempted")
        return TerminalFamily::Stopped;
    if (state == "completed")
        return TerminalFamily::Completed;
    if (state == "ambiguous")
        return TerminalFamily::Ambiguous;
    return TerminalFamily::Unknown;
}

CaseTruth readCaseTruth(const nlohmann::json& expected)
{
    if (!expected.is_object())
        throw std::runtime_error("expected.json is not a JSON object");
    CaseTruth t;
    t.terminalState = vocabularyString(expected, "terminal_state", TerminalStates);
    t.subDomain = vocabularyString(expected, "sub_domain", SubDomains);
    for (const char* key : {"acceptable_sub_domains", "culprit_node", "heldout", "cascade"})
        t.corpusFormat = t.corpusFormat || expected.contains(key);
    if (expected.contains("acceptable_sub_domains")) {
        const auto& list = expected["acceptable_sub_domains"];
        if (!list.is_array())
            throw std::runtime_error("acceptable_sub_domains: expected a list of sub-domains");
        for (const auto& d : list) {
            if (!d.is_string() || !known(SubDomains, d.get<std::string>()))
                throw std::runtime_error("acceptable_sub_domains: " + d.dump() + " is not in the vocabulary");
            t.acceptable.push_back(d.get<std::string>());
        }
    }
    if (expected.contains("culprit_node") && !expected["culprit_node"].is_null()) {
        if (!expected["culprit_node"].is_string() || expected["culprit_node"].get<std::string>().empty())
            throw std::runtime_error("culprit_node: expected a host name or null");
        t.culpritNode = expected["culprit_node"].get<std::string>();
    } else if (expected.contains("root_cause") && expected["root_cause"].is_object()) {
        const auto& rc = expected["root_cause"];
        if (rc.contains("node") && rc["node"].is_string())
            t.culpritNode = rc["node"].get<std::string>();
    }
    t.heldout = flag(expected, "heldout");
    t.seenByRules = flag(expected, "seen_by_rules");
    t.cascade = flag(expected, "cascade");
    return t;
}

CaseScore errorCase(const std::string& name, const std::string& error)
{
    CaseScore s;
    s.name = name;
    s.error = true;
    s.failures.push_back(error);
    return s;
}

CaseScore scoreCase(const std::string& name, const nlohmann::json& expected, const nlohmann::ordered_json* verdict,
                    const std::string& error, const CaseFacts& facts)
{
    CaseScore s;
    try {
        s.truth = readCaseTruth(expected);
    } catch (const std::exception& e) {
        return errorCase(name, std::string("invalid expected.json: ") + e.what());
    }
    if (!verdict) {
        CaseScore e = errorCase(name, error.empty() ? std::string("no verdict") : error);
        e.truth = s.truth;
        return e;
    }
    s.name = name;
    s.gotTerminal = text(*verdict, "terminal_state");
    s.gotSubDomain = text(*verdict, "sub_domain");
    s.gotNode = rootNode(*verdict);
    s.terminalOk = s.truth.terminalState.empty() || s.truth.terminalState == s.gotTerminal;
    s.subDomainOk = fitsTruth(s.truth, s.gotTerminal, s.gotSubDomain);
    s.nodeScored = s.truth.culpritNode.has_value();
    // The engine names nodes by their short host name (bundle folders and log lines alike), so a truth written as
    // a fully qualified name is compared the same way.
    s.nodeOk = s.nodeScored && shortHost(*s.truth.culpritNode) == s.gotNode;
    s.noSymptom = !verdict->contains("symptoms") || (*verdict)["symptoms"].empty();
    s.hardFailure = (s.truth.subDomain == "application" || s.truth.subDomain == "configuration") &&
        s.gotTerminal == "hardware_failure";
    s.skippedTextFiles = facts.skippedTextFiles;
    if (s.truth.corpusFormat)
        compareCorpusCase(expected, *verdict, s);
    else
        s.failures = compareWithExpected(*verdict, expected);
    return s;
}

std::optional<HeldoutFilter> parseHeldoutFilter(std::string_view text)
{
    if (text == "all")
        return HeldoutFilter::All;
    if (text == "only")
        return HeldoutFilter::Only;
    if (text == "unseen")
        return HeldoutFilter::Unseen;
    if (text == "exclude")
        return HeldoutFilter::Exclude;
    return std::nullopt;
}

bool selectedBy(const CaseScore& score, HeldoutFilter filter)
{
    switch (filter) {
    case HeldoutFilter::All: return true;
    case HeldoutFilter::Only: return score.truth.heldout;
    case HeldoutFilter::Unseen: return score.truth.heldout;
    case HeldoutFilter::Exclude: return !score.truth.heldout;
    }
    return true;
}

EvalSummary summarize(const std::vector<CaseScore>& scores, HeldoutFilter filter)
{
    EvalSummary sum;
    for (const auto& s : scores) {
        if (!selectedBy(s, filter))
            continue;
        // Unseen: a case that passes only through a change made with its logs in view counts as the miss it was.
        const bool credit = filter != HeldoutFilter::Unseen || !s.truth.seenByRules;
        ++sum.cases;
        sum.errors += s.error;
        sum.passed += credit && s.passed();
        sum.terminalOk += credit && s.terminalOk;
        sum.subDomainOk += credit && s.subDomainOk;
        sum.nodeScored += s.nodeScored;
        sum.nodeOk += credit && s.nodeOk;
        sum.noSymptom += s.noSymptom;
        sum.skippedTextFiles += s.skippedTextFiles;
        sum.hardFailures += s.hardFailure;
        const std::string truth = s.truth.subDomain.empty() ? "-" : s.truth.subDomain;
        DomainRow& row = sum.perDomain[truth];
        ++row.cases;
        row.subDomainOk += credit && s.subDomainOk;
        row.nodeScored += s.nodeScored;
        row.nodeOk += credit && s.nodeOk;
        ++sum.confusion[truth][s.error ? "(error)" : s.gotSubDomain];
    }
    return sum;
}

std::optional<double> percent(int part, int whole)
{
    if (whole == 0)
        return std::nullopt;
    return 100.0 * part / whole;
}

namespace {

nlohmann::ordered_json percentJson(int part, int whole)
{
    const auto p = percent(part, whole);
    return p ? nlohmann::ordered_json(*p) : nlohmann::ordered_json(nullptr);
}

}  // namespace

nlohmann::ordered_json summaryJson(const EvalSummary& s)
{
    nlohmann::ordered_json j;
    j["cases"] = s.cases;
    j["errors"] = s.errors;
    j["passed"] = s.passed;
    j["terminal_ok"] = s.terminalOk;
    j["terminal_pct"] = percentJson(s.terminalOk, s.cases);
    j["sub_domain_ok"] = s.subDomainOk;
    j["sub_domain_pct"] = percentJson(s.subDomainOk, s.cases);
    j["culprit_node_scored"] = s.nodeScored;
    j["culprit_node_ok"] = s.nodeOk;
    j["culprit_node_pct"] = percentJson(s.nodeOk, s.nodeScored);
    j["no_symptom"] = s.noSymptom;
    j["skipped_text_files"] = s.skippedTextFiles;
    j["hard_failures"] = s.hardFailures;
    nlohmann::ordered_json domains = nlohmann::ordered_json::object();
    for (const auto& [domain, row] : s.perDomain)
        domains[domain] = {{"cases", row.cases},
                           {"sub_domain_ok", row.subDomainOk},
                           {"culprit_node_scored", row.nodeScored},
                           {"culprit_node_ok", row.nodeOk}};
    j["per_domain"] = domains;
    nlohmann::ordered_json confusion = nlohmann::ordered_json::object();
    for (const auto& [truth, predicted] : s.confusion)
        for (const auto& [domain, count] : predicted)
            confusion[truth][domain] = count;
    j["confusion"] = confusion;
    return j;
}

nlohmann::ordered_json caseJson(const CaseScore& s)
{
    nlohmann::ordered_json j;
    j["case"] = s.name;
    j["heldout"] = s.truth.heldout;
    j["seen_by_rules"] = s.truth.seenByRules;
    j["expected"] = {{"terminal_state", s.truth.terminalState},
                     {"sub_domain", s.truth.subDomain},
                     {"acceptable_sub_domains", s.truth.acceptable},
                     {"culprit_node", s.truth.culpritNode ? nlohmann::ordered_json(*s.truth.culpritNode) : nullptr}};
    j["got"] = {{"terminal_state", s.gotTerminal}, {"sub_domain", s.gotSubDomain}, {"node", s.gotNode}};
    j["error"] = s.error;
    j["sub_domain_ok"] = s.subDomainOk;
    j["culprit_node_ok"] = s.nodeScored ? nlohmann::ordered_json(s.nodeOk) : nullptr;
    j["no_symptom"] = s.noSymptom;
    j["skipped_text_files"] = s.skippedTextFiles;
    j["hard_failure"] = s.hardFailure;
    j["failures"] = s.failures;
    return j;
}

std::vector<std::string> checkFloor(const nlohmann::ordered_json& figures, const nlohmann::json& floor)
{
    if (!floor.is_object())
        throw std::runtime_error("a floor is a JSON object {\"all\": {...}, \"heldout\": {...}}");
    std::vector<std::string> out;
    for (const auto& [scope, bounds] : floor.items()) {
        if (!figures.contains(scope) || !bounds.is_object())
            throw std::runtime_error("unknown floor scope '" + scope + "' (use all, heldout or heldout_unseen)");
        const auto& have = figures[scope];
        for (const auto& [key, bound] : bounds.items()) {
            const bool isMin = key.size() > 4 && key.compare(key.size() - 4, 4, "_min") == 0;
            const bool isMax = key.size() > 4 && key.compare(key.size() - 4, 4, "_max") == 0;
            const std::string figure = key.substr(0, key.size() >= 4 ? key.size() - 4 : 0);
            if ((!isMin && !isMax) || !have.contains(figure) || !(have[figure].is_number() || have[figure].is_null()))
                throw std::runtime_error("unknown floor figure '" + scope + "." + key + "'");
            if (!bound.is_number())
                throw std::runtime_error("floor figure '" + scope + "." + key + "' is not a number");
            if (have[figure].is_null()) {  // a percentage of nothing scored cannot meet a bound
                out.push_back(scope + "." + figure + " is n/a (nothing scored), floor " +
                              (isMin ? "at least " : "at most ") + bound.dump());
                continue;
            }
            const double value = have[figure].get<double>();
            const double limit = bound.get<double>();
            if (isMin ? value < limit : value > limit)
                out.push_back(scope + "." + figure + " is " + have[figure].dump() + ", floor " +
                              (isMin ? "at least " : "at most ") + bound.dump());
        }
    }
    return out;
}

}  // namespace attrib::engine
