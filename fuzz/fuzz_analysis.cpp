// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: see fuzz/harness.h (attrib::fuzz::analysis).
#include "fuzz/harness.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return attrib::fuzz::analysis(data, size);
}
