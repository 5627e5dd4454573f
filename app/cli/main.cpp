// SPDX-License-Identifier: GPL-3.0-or-later
// attrib: the headless front end. `analyze`, `rules test`, and the commands added later.
#include "app/cli/commands.h"

#include <cstring>
#include <iostream>

namespace {

void usage(std::ostream& out)
{
    out << "usage: attrib <command> [options]\n"
           "  analyze BUNDLE [--json] [--rules DIR] [--trace FILE]   analyse an evidence bundle\n"
           "  rules test [--rules DIR] [--verbose]                   run every rule's inline cases\n"
           "  eval DIR [--rules DIR] [--verbose]                     score every bundle with an expected.json\n"
           "  replay [DIR] [--rules NEW] [--baseline OLD] [--verbose] verdicts that change between two catalogs\n"
           "  help                                                   this text\n"
           "Exit 0 when the analysis ran (whatever the verdict); non-zero with a one-line reason on bad input.\n";
}

}  // namespace

int main(int argc, char** argv)
{
    using namespace attrib::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        usage(args.empty() ? std::cerr : std::cout);
        return args.empty() ? 2 : 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    if (command == "replay")
        return runReplay(args, argv[0]);
    Options options;
    std::string error;
    if (!parseOptions(args, options, error)) {
        std::cerr << "attrib: " << error << "\n";
        return 2;
    }
    options.executable = argv[0];
    if (command == "analyze")
        return runAnalyze(options);
    if (command == "eval")
        return runEval(options);
    if (command == "rules" && !options.positional.empty() && options.positional[0] == "test")
        return runRulesTest(options);
    std::cerr << "attrib: unknown command '" << command << "'\n";
    usage(std::cerr);
    return 2;
}
