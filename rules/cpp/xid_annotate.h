// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers of HandleXidBurstEvents: Xid catalog facts, detail decoding, PCI inheritance, burst followers and
// the application-vs-hardware classification of Xid 13/31.
#pragma once

#include "engine/catalog.h"

#include <map>
#include <string>
#include <vector>

namespace attrib::rules {

using AttrMap = std::map<std::string, std::string>;

/// Catalog facts of one Xid from the "xid_catalog" data file: mnemonic, description, bucket (immediate
/// resolution bucket), investigatory, bucket_action (plain-language reading of the bucket). Unknown codes get
/// the file's "unknown" entry; a missing data file gives an empty map.
AttrMap xidCatalogFacts(int xid, const nlohmann::json* catalog);

/// Facts in the free text of memory and engine Xids: physical address / remapped row (48, 63, 64), DRAM or
/// SRAM (48, 171, 172), GPC/TPC/SM location (13), fault type (31).
void decodeXidDetail(int xid, const std::string& detail, AttrMap& attrs);

/// Xid events without a PCI address (the split 'fallen off the bus' tail line) borrow the address of the
/// nearest preceding 'nvrm_gpu_head' or Xid event of the same node within `window`. Events must be sorted.
void inheritMissingPci(std::vector<engine::Event>& events, engine::TimeNs window, engine::TraceSink& trace,
                       const std::string& rule);

/// Xids listed in `followXids` ({"63": [48, 64], ...}) become sympathetic when one of their primaries is in
/// the same burst; every event of the burst gets attribute burst_xids (the burst's distinct Xids, at most 16
/// named, so its size does not grow with the burst).
void markBurstFollowers(std::vector<engine::Event*>& burst, const nlohmann::json& followXids);

/// Xid 13/31 are application faults unless the same GPU repeats them in different processes or attempts
/// while no other GPU shows them: those become the hardware symptom. Config: xids, symptom,
/// hardware_symptom, attempt_gap_s, max_other_gpus.
/// A sympathetic Xid that names its cause (`Xid 45 ... caused by previous Xid 149`, the driver's root-cause note)
/// whose cause is not in the evidence stands for that cause: it takes the symptom `named_causes[<xid>]` of the
/// config and stops being sympathetic, so a kernel log that kept only the teardowns still points at the NVLink
/// (or memory) fault. A named cause that is present is followed as usual.
void promoteNamedCauses(std::vector<engine::Event>& events, const nlohmann::json& namedCauses, engine::TraceSink& trace,
                        const std::string& rule);

/// Xid 144-150 whose error words are not shown (redacted `(...)`, a cut line): severity, sub-code and link are
/// still read. Fills `attrs` and returns true when the severity was found.
bool readNvlinkWithoutWords(const std::string& detail, AttrMap& attrs, bool& fatal);

void classifyAppFaults(std::vector<engine::Event>& events, const nlohmann::json& config, engine::TraceSink& trace,
                       const std::string& rule);

}  // namespace attrib::rules
