// SPDX-License-Identifier: GPL-3.0-or-later
// attrib cases FILE [--json]: the cases of a case store, newest first, with their labels.
#include "app/cli/cli.h"

#include "engine/json_util.h"
#include "engine/store/case_record.h"
#include "engine/store/sqlite_case_store.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iomanip>
#include <iostream>
#include <memory>

namespace attrib::cli {

namespace {

struct CasesOptions {
    std::string storeFile;
    store::CaseFilter filter;
    bool json = false;
};

nlohmann::ordered_json orNull(const std::string& s)
{
    return s.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s);
}

nlohmann::ordered_json caseJson(const store::CaseSummary& c)
{
    nlohmann::ordered_json j;
    j["id"] = c.id;
    j["created"] = engine::formatTime(c.createdAt);
    j["bundle"] = c.bundlePath;
    j["bundle_hash"] = c.bundleHash;
    j["workload_id"] = orNull(c.workloadId);
    j["job_start"] = orNull(engine::formatTime(c.jobStart));
    j["terminal_state"] = c.terminalState;
    j["sub_domain"] = c.subDomain;
    j["root_cause"] = {{"symptom", orNull(c.rootSymptom)}, {"node", orNull(c.rootNode)}};
    j["engine"] = {
        {"version", c.engineVersion}, {"catalog_version", c.catalogVersion}, {"catalog_hash", c.catalogHash}};
    if (c.label) {
        j["label"] = {{"terminal_state", orNull(c.label->terminalState)},
                      {"sub_domain", orNull(c.label->subDomain)},
                      {"node", orNull(c.label->node)},
                      {"notes", c.label->notes},
                      {"by", c.label->labeledBy},
                      {"at", engine::formatTime(c.label->labeledAt)}};
    } else {
        j["label"] = nullptr;
    }
    j["label_agrees"] = store::agreementText(c) == "-" ? nlohmann::ordered_json(nullptr)
                                                       : nlohmann::ordered_json(store::agreementText(c) == "yes");
    return j;
}

std::string labelText(const store::CaseSummary& c)
{
    if (!c.label)
        return "-";
    auto dash = [](const std::string& s) { return s.empty() ? std::string("-") : s; };
    return dash(c.label->terminalState) + "/" + dash(c.label->subDomain) + "/" + dash(c.label->node);
}

void printTable(const std::vector<store::CaseSummary>& cases)
{
    std::cout << std::left << std::setw(6) << "id" << std::setw(22) << "created" << std::setw(16) << "workload"
              << std::setw(44) << "verdict (state / domain / node)" << std::setw(40) << "label" << std::setw(7)
              << "agree"
              << "bundle\n";
    for (const auto& c : cases) {
        const std::string created = engine::formatTime(c.createdAt).substr(0, 19);
        std::cout << std::setw(6) << c.id << std::setw(22) << created << std::setw(16)
                  << (c.workloadId.empty() ? "-" : c.workloadId) << std::setw(44)
                  << (c.terminalState + " / " + c.subDomain + " / " + (c.rootNode.empty() ? "-" : c.rootNode))
                  << std::setw(40) << labelText(c) << std::setw(7) << store::agreementText(c) << c.bundlePath << "\n";
    }
    std::cout << cases.size() << " case(s)\n";
}

int runCases(const CasesOptions& o)
{
    auto caseStore = openStoreFor(o.storeFile, true);
    if (!caseStore)
        return 1;
    try {
        const auto cases = caseStore->listCases(o.filter);
        if (o.json) {
            auto list = nlohmann::ordered_json::array();
            for (const auto& c : cases)
                list.push_back(caseJson(c));
            std::cout << list.dump(2) << "\n";
        } else {
            printTable(cases);
        }
        return 0;
    } catch (const store::StoreError& e) {
        std::cerr << "attrib: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace

void addCasesCommand(CLI::App& app, CliContext& cli)
{
    auto options = std::make_shared<CasesOptions>();
    auto* sub = app.add_subcommand("cases", "list the cases of a case store, newest first");
    sub->add_option("FILE", options->storeFile, "case store (SQLite file)")->required();
    sub->add_flag("--json", options->json, "print the cases as a JSON array");
    sub->add_option("--terminal-state", options->filter.terminalState, "only cases with this verdict state");
    sub->add_option("--sub-domain", options->filter.subDomain, "only cases with this verdict sub-domain");
    sub->add_option("--node", options->filter.node, "only cases whose root cause is on this node");
    sub->add_flag("--labeled", options->filter.labeledOnly, "only labeled cases");
    sub->add_option("--limit", options->filter.limit, "at most N cases")->option_text("N");
    sub->callback([options, &cli] { cli.exitCode = runCases(*options); });
}

}  // namespace attrib::cli
