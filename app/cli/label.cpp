// SPDX-License-Identifier: GPL-3.0-or-later
// attrib label FILE ID --terminal-state S --sub-domain D --node N --note TEXT: the analyst's verdict on a case.
// Options not given keep the case's current label values; --clear removes the label.
#include "app/cli/cli.h"

#include "engine/json_util.h"
#include "engine/store/case_record.h"
#include "engine/store/sqlite_case_store.h"
#include "engine/verdict.h"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>

namespace attrib::cli {

namespace {

struct LabelOptions {
    std::string storeFile;
    std::int64_t id = 0;
    std::optional<std::string> terminalState;
    std::optional<std::string> subDomain;
    std::optional<std::string> node;
    std::optional<std::string> note;
    std::string by;
    bool clear = false;
};

std::string defaultUser()
{
    for (const char* var : {"ATTRIB_USER", "USER", "LOGNAME"})
        if (const char* v = std::getenv(var); v && *v)
            return v;
    return "unknown";
}

int runLabel(const LabelOptions& o)
{
    auto caseStore = openStoreFor(o.storeFile, false);
    if (!caseStore)
        return 1;
    try {
        const auto existing = caseStore->getCase(o.id);
        if (!existing) {
            std::cerr << "attrib: " << o.storeFile << ": no case " << o.id << "\n";
            return 1;
        }
        if (o.clear) {
            caseStore->removeLabel(o.id);
            std::cout << "case " << o.id << ": label removed\n";
            return 0;
        }
        store::CaseLabel label = existing->summary.label.value_or(store::CaseLabel{});
        label.terminalState = o.terminalState.value_or(label.terminalState);
        label.subDomain = o.subDomain.value_or(label.subDomain);
        label.node = o.node.value_or(label.node);
        label.notes = o.note.value_or(label.notes);
        label.labeledBy = o.by.empty() ? defaultUser() : o.by;
        label.labeledAt = store::nowNs();
        caseStore->setLabel(o.id, label);
        auto summary = existing->summary;
        summary.label = label;
        std::cout << "case " << o.id << ": labeled " << (label.terminalState.empty() ? "-" : label.terminalState)
                  << " / " << (label.subDomain.empty() ? "-" : label.subDomain) << " / "
                  << (label.node.empty() ? "-" : label.node) << " by " << label.labeledBy
                  << "; verdict agrees: " << store::agreementText(summary) << "\n";
        return 0;
    } catch (const store::StoreError& e) {
        std::cerr << "attrib: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace

void addLabelCommand(CLI::App& app, CliContext& cli)
{
    auto options = std::make_shared<LabelOptions>();
    auto* sub = app.add_subcommand("label", "record the true cause of a stored case (the yardstick for eval)");
    sub->add_option("FILE", options->storeFile, "case store (SQLite file)")->required();
    sub->add_option("ID", options->id, "case id (attrib cases FILE)")->required()->check(CLI::PositiveNumber);
    sub->add_option("--terminal-state", options->terminalState, "true terminal state")
        ->check(CLI::IsMember(engine::TerminalStates));
    sub->add_option("--sub-domain", options->subDomain, "true sub-domain")->check(CLI::IsMember(engine::SubDomains));
    sub->add_option("--node", options->node, "node where the failure began");
    sub->add_option("--note", options->note, "free notes (replace the current ones)");
    sub->add_option("--by", options->by, "who labels (default: $ATTRIB_USER, $USER)");
    sub->add_flag("--clear", options->clear, "remove the case's label");
    sub->callback([options, &cli] { cli.exitCode = runLabel(*options); });
}

}  // namespace attrib::cli
