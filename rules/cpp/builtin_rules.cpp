// SPDX-License-Identifier: GPL-3.0-or-later
// Registration of the C++ rules and lookup of the catalog folder.
#include "rules/cpp/builtin_rules.h"

#include "rules/cpp/breadth.h"
#include "rules/cpp/gpu_identity.h"
#include "rules/cpp/nccl_hang.h"
#include "rules/cpp/nccl_peers.h"
#include "rules/cpp/nvlink_state.h"
#include "rules/cpp/python_exceptions.h"
#include "rules/cpp/workload_scope.h"
#include "rules/cpp/xid_burst.h"

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace attrib::rules {

const engine::CodeRuleRegistry& builtinCodeRules()
{
    static const engine::CodeRuleRegistry registry = [] {
        engine::CodeRuleRegistry r;
        r.factories["LearnGpuIdentity"] = [](const nlohmann::json& config) { return makeLearnGpuIdentity(config); };
        r.factories["HandleXidBurstEvents"] = [](const nlohmann::json& config) {
            return makeHandleXidBurstEvents(config);
        };
        r.factories["ResolveNcclPeers"] = [](const nlohmann::json& config) { return makeResolveNcclPeers(config); };
        r.factories["NcclHangCulprit"] = [](const nlohmann::json& c) { return makeNcclHangCulprit(c); };
        r.factories["PythonExceptionOrigin"] = [](const nlohmann::json& c) { return makePythonExceptionOrigin(c); };
        r.factories["JobWideBreadth"] = [](const nlohmann::json& c) { return makeJobWideBreadth(c); };
        r.factories["NvlinkLinkStates"] = [](const nlohmann::json& c) { return makeNvlinkLinkStates(c); };
        r.factories["ScopeToWorkload"] = [](const nlohmann::json& c) { return makeScopeToWorkload(c); };
        return r;
    }();
    return registry;
}

std::string findRulesDir(const std::string& explicitDir, const std::string& executablePath)
{
    if (!explicitDir.empty())
        return explicitDir;
    if (const char* env = std::getenv("ATTRIB_RULES"); env && *env)
        return env;
    std::error_code ec;
    const fs::path exeDir = fs::path(executablePath).parent_path();
    for (const fs::path& candidate : {exeDir / "rules", exeDir / ".." / "share" / "attribution-workbench" / "rules"}) {
        if (fs::is_regular_file(candidate / "catalog.json", ec))
            return candidate.lexically_normal().string();
    }
    return sourceRulesDir();
}

std::string sourceRulesDir()
{
    return ATTRIB_SOURCE_RULES_DIR;
}

engine::CatalogPtr loadCatalog(const std::string& dir)
{
    return engine::Catalog::load(dir, builtinCodeRules());
}

}  // namespace attrib::rules
