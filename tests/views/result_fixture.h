// SPDX-License-Identifier: GPL-3.0-or-later
// Analysis results built inline for view tests and the timeline benchmark: a small NVLink-like cascade
// written as a few readable lines, and a generated result of N nodes x M events.
#pragma once

#include "engine/verdict.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

namespace attrib::tests {

using namespace attrib::engine;

inline constexpr TimeNs FixtureEpoch = 1'776'893'660LL * NsPerSec;  // 2026-04-22T21:34:20Z

/// Builds an AnalysisResult step by step; ids are assigned in call order (events and symptoms in time order).
class ResultBuilder {
public:
    ResultBuilder()
    {
        m_r = std::make_shared<AnalysisResult>();
        m_r->bundlePath = "/bundles/fixture";
        m_r->engine = {"0.1.0", "test", "0123456789abcdef"};
        m_r->context.workloadId = "42";
        m_r->context.scheduler = "slurm";
    }

    std::uint32_t file(const std::string& path, SourceKind kind, const std::string& node, std::uint64_t lines)
    {
        m_r->files.push_back({path, "/bundles/fixture/" + path, {}, lines * 80});
        FileCoverage cov;
        cov.path = path;
        cov.kind = kind;
        cov.format = kind == SourceKind::Kernel ? "dmesg-T" : "app";
        cov.node = node;
        cov.lines = lines;
        cov.first = FixtureEpoch - 60 * NsPerSec;
        cov.last = FixtureEpoch + 60 * NsPerSec;
        m_r->fileCoverage.push_back(cov);
        if (!node.empty() &&
            std::find(m_r->context.nodes.begin(), m_r->context.nodes.end(), node) == m_r->context.nodes.end())
            m_r->context.nodes.push_back(node);
        return static_cast<std::uint32_t>(m_r->files.size() - 1);
    }

    std::uint64_t observation(std::uint32_t file, std::uint64_t line, double at, const std::string& text)
    {
        Observation o;
        o.id = m_r->observations.size() + 1;
        o.kind = m_r->fileCoverage[file].kind;
        o.source = {file, static_cast<std::uint32_t>(text.size()), line, (line - 1) * 80};
        o.node = m_r->fileCoverage[file].node;
        o.time = FixtureEpoch + static_cast<TimeNs>(at * 1e9);
        o.timeSource = TimeSource::Absolute;
        o.text = text;
        m_r->observations.push_back(o);
        return o.id;
    }

    std::uint64_t event(const std::string& type, const std::string& symptom, std::uint64_t observation, int gpu = -1)
    {
        const Observation& o = *m_r->observation(observation);
        Event e;
        e.id = m_r->events.size() + 1;
        e.type = type;
        e.rule = type + "_rule";
        e.symptom = symptom;
        e.node = o.node;
        e.gpu = gpu;
        e.time = o.time;
        e.timeSource = TimeSource::Absolute;
        e.observations = {observation};
        m_r->events.push_back(e);
        return e.id;
    }

    Symptom& symptom(const std::string& name, const std::string& domain, std::uint64_t event,
                     SymptomStatus status = SymptomStatus::Active, const std::string& rule = {},
                     const std::string& reason = {})
    {
        const Event& e = *m_r->event(event);
        Symptom s;
        s.name = name;
        s.id = name + "@" + (e.node.empty() ? std::string("job") : e.node.str()) +
            (e.gpu >= 0 ? "/gpu" + std::to_string(e.gpu) : std::string());
        s.domain = domain;
        s.node = e.node;
        s.gpu = e.gpu;
        s.firstSeen = s.lastSeen = e.time;
        s.count = 1;
        s.status = status;
        s.statusRule = rule;
        s.statusReason = reason;
        s.interesting = status == SymptomStatus::Demoted;
        s.events = {event};
        s.evidence = e.observations.toVector();
        m_r->symptoms.push_back(s);
        return m_r->symptoms.back();
    }

    void rootCause(const std::string& symptomId, const std::string& terminal, const std::string& subDomain)
    {
        const Symptom& s = *std::find_if(m_r->symptoms.begin(), m_r->symptoms.end(),
                                         [&](const Symptom& x) { return x.id == symptomId; });  // not sorted yet
        RootCause rc;
        rc.symptomId = s.id;
        rc.symptom = s.name;
        rc.node = s.node;
        rc.gpu = s.gpu;
        rc.time = s.firstSeen;
        rc.summary = s.name + " on " + s.node;
        rc.rule = "TestPriority";
        rc.decisiveObservation = s.evidence.front();
        m_r->verdict.rootCause = rc;
        m_r->verdict.terminalState = terminal;
        m_r->verdict.subDomain = subDomain;
        m_r->verdict.action = {"drain " + s.node, s.node, "test"};
        m_r->verdict.affectedNodes = m_r->context.nodes;
        m_r->verdict.explanation = rc.summary + ".";
    }

    void coverage(SourceKind kind, CoverageStatus status, std::vector<std::string> errors = {})
    {
        CollectorCoverage c;
        c.kind = kind;
        c.status = status;
        c.errors = std::move(errors);
        for (const auto& f : m_r->fileCoverage) {
            if (f.kind == kind) {
                c.files.push_back(f.path);
                c.nodes.push_back(f.node);
                c.lines += f.lines;
            }
        }
        m_r->coverage.push_back(c);
    }

    /// Symptoms sorted by id, as the engine delivers them.
    std::shared_ptr<const AnalysisResult> build()
    {
        std::sort(m_r->symptoms.begin(), m_r->symptoms.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        return m_r;
    }

private:
    std::shared_ptr<AnalysisResult> m_r;
};

/// node-02 GPU 3 NVLink link-down (root cause), a demoted NCCL error on node-01, a scrubbed follow-up,
/// a context event, and a missing kernel log for node-03.
inline std::shared_ptr<const AnalysisResult> nvlinkFixture()
{
    ResultBuilder b;
    const auto dmesg = b.file("nodes/node-02/dmesg.txt", SourceKind::Kernel, "node-02", 120);
    const auto rank = b.file("nodes/node-01/rank-03.log", SourceKind::App, "node-01", 300);
    b.file("nodes/node-03/rank-17.log", SourceKind::App, "node-03", 280);
    const auto xid = b.observation(dmesg, 99, 0, "NVRM: Xid (PCI:0000:61:00): 149, NETIR_LINK_EVT  Fatal   Link 07");
    const auto teardown = b.observation(dmesg, 100, 0.01, "NVRM: Xid (PCI:0000:61:00): 45, pid=1, Ch 00000010");
    const auto nccl =
        b.observation(rank, 210, -2.0, "NCCL WARN NET/IB : Got completion from peer 10.0.0.2<1234> with error 12");
    const auto init = b.observation(rank, 15, -1800, "NCCL INFO comm 0x1 rank 3 nranks 32 cudaDev 3 busId 61000");
    const auto eXid = b.event("xid", "nvlink_signal_integrity", xid, 3);
    const auto eTeardown = b.event("xid", "gpu_channel_teardown", teardown, 3);
    const auto eNccl = b.event("nccl_ib_completion", "nccl_ib_completion_error", nccl, 3);
    b.event("nccl_init", "", init, 3);
    b.symptom("nvlink_signal_integrity", "nvlink", eXid);
    b.symptom("gpu_channel_teardown", "gpu", eTeardown, SymptomStatus::Scrubbed, "ScrubSympatheticEvents",
              "sympathetic follow-up of nvlink_signal_integrity@node-02/gpu3");
    b.symptom("nccl_ib_completion_error", "comm_library", eNccl, SymptomStatus::Demoted, "Xid149AndNvlinkFiltering",
              "nccl_ib_completion_error on node-01 began within the causal window of the NVLink failure");
    b.rootCause("nvlink_signal_integrity@node-02/gpu3", "hardware_failure", "nvlink");
    b.coverage(SourceKind::Kernel, CoverageStatus::Partial, {"kernel log of node-01 is missing"});
    b.coverage(SourceKind::App, CoverageStatus::Ok);
    return b.build();
}

/// `nodes` nodes with `perNode` events each over one hour; every 50th event raises an (active or demoted)
/// symptom on its node. Built directly (no builder) to stay fast at a million events.
inline std::shared_ptr<const AnalysisResult> generatedResult(int nodes, int perNode)
{
    auto r = std::make_shared<AnalysisResult>();
    r->bundlePath = "/bundles/generated";
    r->engine = {"0.1.0", "test", "generated"};
    const std::vector<std::string> domains = {"gpu", "nvlink", "network", "comm_library", "scheduler", "host"};
    r->events.reserve(static_cast<std::size_t>(nodes) * perNode);
    for (int n = 0; n < nodes; ++n) {
        char name[32];
        std::snprintf(name, sizeof name, "node-%04d", n);
        r->context.nodes.push_back(name);
    }
    std::uint64_t id = 0;
    for (int i = 0; i < perNode; ++i) {
        for (int n = 0; n < nodes; ++n) {
            Event e;
            e.id = ++id;
            e.type = i % 7 == 0 ? "xid" : "nccl_warn";
            e.node = r->context.nodes[n];
            e.gpu = static_cast<int>((i + n) % 8);
            e.time = FixtureEpoch + static_cast<TimeNs>(i) * 3600 * NsPerSec / perNode + n * NsPerMs;
            e.timeSource = TimeSource::Absolute;
            r->events.push_back(std::move(e));
        }
    }
    for (int n = 0; n < nodes; ++n) {
        for (int k = 0; k < 2; ++k) {
            Symptom s;
            s.name = k == 0 ? "nccl_ib_completion_error" : "nvlink_signal_integrity";
            s.domain = domains[static_cast<std::size_t>(n + k) % domains.size()];
            s.node = r->context.nodes[n];
            s.gpu = k;
            s.id = s.name + "@" + s.node + "/gpu" + std::to_string(k);
            s.status = (n + k) % 3 == 0 ? SymptomStatus::Active : SymptomStatus::Demoted;
            s.firstSeen = FixtureEpoch + (600 + 60 * k) * NsPerSec;
            s.lastSeen = s.firstSeen + 300 * NsPerSec;
            for (int i = k; i < perNode; i += 50)
                s.events.push_back(static_cast<std::uint64_t>(i) * nodes + n + 1);
            s.count = static_cast<std::uint32_t>(s.events.size());
            r->symptoms.push_back(std::move(s));
        }
    }
    std::sort(r->symptoms.begin(), r->symptoms.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    return r;
}

}  // namespace attrib::tests
