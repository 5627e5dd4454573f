// SPDX-License-Identifier: GPL-3.0-or-later
// Registration of the C++ rules and lookup of the catalog folder.
#include "rules/cpp/builtin_rules.h"
#include "engine/case_cache.h"

#include "rules/cpp/batch_host.h"
#include "rules/cpp/breadth.h"
#include "rules/cpp/checkpoint_stall.h"
#include "rules/cpp/gpu_identity.h"
#include "rules/cpp/nccl_hang.h"
#include "rules/cpp/nccl_peers.h"
#include "rules/cpp/nccl_release.h"
#include "rules/cpp/node_facts.h"
#include "rules/cpp/nvlink_state.h"
#include "rules/cpp/python_exceptions.h"
#include "rules/cpp/rank_claims.h"
#include "rules/cpp/sole_node.h"
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
        r.factories["CheckpointOutlastsCollective"] = [](const nlohmann::json& c) {
            return makeCheckpointOutlastsCollective(c);
        };
        r.factories["BatchStepOnBatchHost"] = [](const nlohmann::json& c) { return makeBatchStepOnBatchHost(c); };
        r.factories["SoleNodeFromCommandLine"] = [](const nlohmann::json& c) { return makeSoleNodeFromCommandLine(c); };
        r.factories["KnownNcclReleaseIssue"] = [](const nlohmann::json& c) { return makeKnownNcclReleaseIssue(c); };
        r.factories["DuplicateRankClaims"] = [](const nlohmann::json& c) { return makeDuplicateRankClaims(c); };
        r.factories["NodeFactsDiffer"] = [](const nlohmann::json& c) { return makeNodeFactsDiffer(c); };
        r.factories["ScopeToWorkload"] = [](const nlohmann::json& c) { return makeScopeToWorkload(c); };
        return r;
    }();
    return registry;
}

namespace {

/// The running program's folder. /proc/self/exe first: a program started through PATH has no folder in argv[0].
fs::path programDir(const std::string& executablePath)
{
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec && !self.empty())
        return self.parent_path();
    return fs::weakly_canonical(fs::path(executablePath), ec).parent_path();
}

/// `name` under the installed share folder next to the program, if it holds `marker`.
std::string installed(const std::string& executablePath, const char* name, const char* marker)
{
    std::error_code ec;
    const fs::path exeDir = programDir(executablePath);
    for (const fs::path& candidate : {exeDir / name, exeDir / ".." / "share" / "attribution-workbench" / name}) {
        if (fs::exists(candidate / marker, ec))
            return candidate.lexically_normal().string();
    }
    return {};
}

}  // namespace

std::string findRulesDir(const std::string& explicitDir, const std::string& executablePath)
{
    if (!explicitDir.empty())
        return explicitDir;
    if (const char* env = std::getenv("ATTRIB_RULES"); env && *env)
        return env;
    if (std::string dir = installed(executablePath, "rules", "catalog.json"); !dir.empty())
        return dir;
    return sourceRulesDir();
}

std::string findSamplesDir(const std::string& executablePath)
{
    if (std::string dir = installed(executablePath, "samples", "nvlink-xid149"); !dir.empty())
        return dir;
    return (fs::path(sourceRulesDir()).parent_path() / "samples").lexically_normal().string();
}

std::string sourceRulesDir()
{
    return ATTRIB_SOURCE_RULES_DIR;
}

engine::CatalogPtr loadCatalog(const std::string& dir, CaseRuns runs, engine::CaseDetail detail)
{
    return engine::Catalog::load(dir, builtinCodeRules(),
                                 runs == CaseRuns::Reuse ? engine::defaultCaseCacheDir() : std::string(), detail);
}

}  // namespace attrib::rules
