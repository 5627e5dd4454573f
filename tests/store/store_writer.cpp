// SPDX-License-Identifier: GPL-3.0-or-later
// Child process for the kill-during-write test: writes to a store in a loop until it is killed.
//   store_writer cases FILE       saves large cases; prints "begin N" before and "committed ID" after each
//   store_writer label FILE ID    rewrites one case's label; prints "begin N" and "labeled N"
#include "store_fixtures.h"

#include "engine/store/sqlite_case_store.h"

#include <cstdio>
#include <iostream>
#include <string>

using namespace attrib::store;

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::cerr << "usage: store_writer cases|label FILE [ID]\n";
        return 2;
    }
    const std::string mode = argv[1];
    try {
        auto store = SqliteCaseStore::open(argv[2]);
        for (int n = 0;; ++n) {
            std::printf("begin %d\n", n);
            std::fflush(stdout);
            if (mode == "cases") {
                const auto id = store->addCase(testing::syntheticCase(n, 50, 2000, 1 << 20));
                std::printf("committed %lld\n", static_cast<long long>(id));
            } else {
                CaseLabel label{"hardware_failure",
                                "nvlink",
                                "node-0" + std::to_string(n % 8),
                                "edit " + std::to_string(n) + " " + std::string(20000, 'n'),
                                "writer",
                                1 + n};
                store->setLabel(std::stoll(argv[3]), label);
                std::printf("labeled %d\n", n);
            }
            std::fflush(stdout);
        }
    } catch (const std::exception& e) {
        std::cerr << "store_writer: " << e.what() << "\n";
        return 1;
    }
}
