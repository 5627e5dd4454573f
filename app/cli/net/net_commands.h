// SPDX-License-Identifier: GPL-3.0-or-later
// attrib-net's commands: the ones that need Qt's network modules (see NetCommands in app/cli/cli.h).
#pragma once

#include "app/cli/cli.h"

namespace attrib::cli {

/// `attrib serve`: runs the Service until SIGTERM/SIGINT; returns the exit code.
int runServe(const ServeOptions& options, const CliContext& cli);

/// `attrib analyze BUNDLE --service URL`: the observations of `local` sent to the Service, its verdict printed.
int analyzeWithService(const engine::AnalysisResult& local, const ServiceCall& call, const engine::CatalogPtr& catalog);

}  // namespace attrib::cli
