// SPDX-License-Identifier: GPL-3.0-or-later
// PCI addresses as the NVIDIA driver prints them (`dddd:bb:dd`), from every form the evidence uses.
#pragma once

#include <string>
#include <string_view>

namespace attrib::engine {

/// Normalizes to lower-case `dddd:bb:dd` (no function digit). Accepts `00000000:1B:00.0`, `PCI:0000:1b:00`,
/// `1b:00.0`.
std::string normalizePci(std::string_view pci);
/// NCCL prints busId as hex digits domain|bus(2)|device(2)|function(1) without separators: `61000` -> `0000:61:00`.
std::string pciFromNcclBusId(std::string_view busId);

}  // namespace attrib::engine
