// SPDX-License-Identifier: GPL-3.0-or-later
// attrib-net: the attrib command line with the commands that need Qt's network modules (`serve`, `analyze
// --service`). attrib runs it for those commands; run directly, it is attrib.
#include "app/cli/net/net_commands.h"

int main(int argc, char** argv)
{
    return attrib::cli::runCommandLine(argc, argv, {attrib::cli::runServe, attrib::cli::analyzeWithService});
}
