// SPDX-License-Identifier: GPL-3.0-or-later
// attrib gen --nodes N --gpus-per-node G --minutes M --fault KIND --seed S --out DIR: writes a deterministic
// synthetic bundle with one planted fault and prints the planted culprit (the verdict a correct analysis gives).
#include "app/cli/cli.h"
#include "app/cli/gen_bundle.h"

#include "engine/safe_text.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <memory>
#include <thread>

namespace attrib::cli {

namespace {

struct GenOptions {
    gen::Options options;
    std::string fault = "nvlink-xid149";
};

int runGen(GenOptions& o)
{
    const auto fault = gen::faultFromName(o.fault);
    if (!fault) {
        std::string known;
        for (const auto f : gen::allFaults())
            known += (known.empty() ? "" : ", ") + std::string(gen::faultName(f));
        std::cerr << "attrib: gen: unknown fault '" << engine::terminalSafe(o.fault) << "' (known: " << known << ")\n";
        return 2;
    }
    o.options.fault = *fault;
    std::string error;
    const gen::Planted planted = gen::generate(o.options, error);
    if (!error.empty()) {
        std::cerr << "attrib: gen: " << engine::terminalSafe(error) << "\n";
        return 1;
    }
    std::cout << "planted: " << planted.terminalState << " / " << planted.subDomain << " on "
              << (planted.node.empty() ? std::string("the job") : planted.node)
              << (planted.gpu >= 0 ? " GPU " + std::to_string(planted.gpu) : std::string()) << "\n"
              << "wrote " << planted.files << " files, " << planted.bytes << " bytes to "
              << engine::terminalSafe(o.options.out) << "\n";
    return 0;
}

}  // namespace

void addGenCommand(CLI::App& app, CliContext& cli)
{
    auto o = std::make_shared<GenOptions>();
    o->options.jobs = std::max(1u, std::thread::hardware_concurrency());
    auto* sub = app.add_subcommand("gen", "write a synthetic evidence bundle with a planted fault (deterministic)");
    sub->add_option("--nodes", o->options.nodes, "nodes in the job")->check(CLI::Range(1, 100000));
    sub->add_option("--gpus-per-node", o->options.gpusPerNode, "GPUs (ranks) per node")->check(CLI::Range(1, 16));
    sub->add_option("--minutes", o->options.minutes, "minutes of training before the fault (sets the size)")
        ->check(CLI::Range(0, 100000));
    sub->add_option("--fault", o->fault, "fault kind, named after its sample (none for a healthy job)");
    sub->add_option("--seed", o->options.seed, "random seed: picks the job id, culprit node and GPU, and the noise");
    sub->add_option("--out", o->options.out, "bundle folder to create (must not exist or be empty)")->required();
    sub->add_option("--storm-lines", o->options.stormLines,
                    "extra matching NCCL lines after the fault, spread over the ranks (a log storm)");
    sub->add_option("-j,--jobs", o->options.jobs, "nodes written at once (default: CPU count)")
        ->check(CLI::PositiveNumber);
    sub->callback([o, &cli] { cli.exitCode = runGen(*o); });
}

}  // namespace attrib::cli
