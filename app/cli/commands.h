// SPDX-License-Identifier: GPL-3.0-or-later
// The CLI's commands, each a function over parsed options returning the exit code.
#pragma once

#include <string>
#include <vector>

namespace attrib::cli {

struct Options {
    std::vector<std::string> positional;
    std::string rulesDir;
    std::string traceFile;
    std::string executable;
    bool json = false;
    bool verbose = false;
};

/// Splits flags from positional arguments; false with an error for unknown flags or missing values.
bool parseOptions(const std::vector<std::string>& args, Options& options, std::string& error);

int runAnalyze(const Options& options);
int runRulesTest(const Options& options);
int runEval(const Options& options);
/// `attrib replay [DIR] [--rules NEW] [--baseline OLD]`: parses its own `--baseline`, then the common options.
int runReplay(std::vector<std::string> args, const std::string& executable);

}  // namespace attrib::cli
