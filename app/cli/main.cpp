// SPDX-License-Identifier: GPL-3.0-or-later
// attrib: the headless front end. `serve` and `analyze --service` run in attrib-net (app/cli/net/main.cpp).
#include "app/cli/cli.h"

int main(int argc, char** argv)
{
    return attrib::cli::runCommandLine(argc, argv, {});
}
