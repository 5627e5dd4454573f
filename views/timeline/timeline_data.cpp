// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/timeline/timeline_data.h"

#include "views/presentation.h"

#include <algorithm>
#include <limits>
#include <set>

namespace attrib::views {

using namespace attrib::engine;

bool naturalLess(const std::string& a, const std::string& b)
{
    std::size_t i = 0;
    std::size_t j = 0;
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t ie = i;
            std::size_t je = j;
            while (ie < a.size() && digit(a[ie]))
                ++ie;
            while (je < b.size() && digit(b[je]))
                ++je;
            const std::string_view da = std::string_view(a).substr(i, ie - i);
            const std::string_view db = std::string_view(b).substr(j, je - j);
            const auto trim = [](std::string_view s) { return s.substr(std::min(s.find_first_not_of('0'), s.size())); };
            const auto ta = trim(da);
            const auto tb = trim(db);
            if (ta.size() != tb.size())
                return ta.size() < tb.size();
            if (ta != tb)
                return ta < tb;
            i = ie;
            j = je;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

namespace {

constexpr const char* JobLane = "(job-wide)";

struct Builder {
    const AnalysisData& analysis;
    TimelineData& data;
    std::unordered_map<std::string, int> nodeIndex;
    std::vector<std::uint8_t> symptomDomain;
    std::uint8_t contextDomain = 0;
    std::vector<bool> domainSeen;

    void collectNodes();
    void placeEvents();
    void placeBars();
    void sortTracks();
};

std::uint8_t domainIndex(const QStringList& names, const std::string& domain)
{
    const int i = names.indexOf(qs(domain));
    return static_cast<std::uint8_t>(i >= 0 ? i : names.indexOf(QStringLiteral("unknown")));
}

void Builder::collectNodes()
{
    const AnalysisResult& r = analysis.r();
    std::set<std::string> names(r.context.nodes.begin(), r.context.nodes.end());
    bool jobWide = false;
    for (const auto& e : r.events)
        e.node.empty() ? void(jobWide = true) : void(names.insert(e.node));
    for (const auto& s : r.symptoms)
        s.node.empty() ? void(jobWide = true) : void(names.insert(s.node));
    std::vector<std::string> sorted(names.begin(), names.end());
    std::sort(sorted.begin(), sorted.end(), naturalLess);
    if (jobWide)
        sorted.emplace_back(JobLane);
    for (const auto& n : sorted) {
        nodeIndex.emplace(n == JobLane ? std::string() : n, static_cast<int>(data.nodes.size()));
        data.nodes.push_back({});
        data.nodes.back().name = n;
    }
    const QStringList domains = domainNames();
    contextDomain = domainIndex(domains, "context");
    domainSeen.assign(domains.size(), false);
    for (const auto& s : r.symptoms)
        symptomDomain.push_back(domainIndex(domains, s.domain));
}

void Builder::placeEvents()
{
    const AnalysisResult& r = analysis.r();
    data.eventNode.assign(r.events.size(), -1);
    std::size_t timed = 0;
    std::size_t bootRelative = 0;
    for (std::size_t e = 0; e < r.events.size(); ++e) {
        const Event& ev = r.events[e];
        if (ev.time == NoTime) {
            ++data.untimedEvents;
            continue;
        }
        const int node = nodeIndex.at(ev.node);
        const int symptom = analysis.eventSymptom[e];
        Mark m{data.origin.toSeconds(ev.time), static_cast<std::uint32_t>(e),
               symptom >= 0 ? symptomDomain[symptom] : contextDomain,
               static_cast<std::uint8_t>(analysis.eventRole(static_cast<int>(e))),
               static_cast<std::uint8_t>(ev.timeSource)};
        domainSeen[m.domain] = true;
        data.hasInherited |= ev.timeSource == TimeSource::Inherited;
        data.hasApproximate |= ev.timeSource == TimeSource::YearInferred || ev.timeSource == TimeSource::BootRelative;
        ++timed;
        bootRelative += ev.timeSource == TimeSource::BootRelative ? 1 : 0;
        NodeTrack& track = data.nodes[node];
        track.all.push_back(m);
        data.eventNode[e] = node;
        if (ev.gpu < 0) {
            track.nodeLevel.push_back(m);
            continue;
        }
        auto it = std::lower_bound(track.gpus.begin(), track.gpus.end(), ev.gpu);
        const auto slot = static_cast<std::size_t>(it - track.gpus.begin());
        if (it == track.gpus.end() || *it != ev.gpu) {
            track.gpus.insert(it, ev.gpu);
            track.gpuMarks.insert(track.gpuMarks.begin() + static_cast<long>(slot), std::vector<Mark>{});
        }
        track.gpuMarks[slot].push_back(m);
    }
    data.sinceBoot = timed > 0 && bootRelative == timed;
    data.eventCount = r.events.size() - data.untimedEvents;
}

void Builder::placeBars()
{
    const AnalysisResult& r = analysis.r();
    data.symptomNode.assign(r.symptoms.size(), -1);
    for (std::size_t s = 0; s < r.symptoms.size(); ++s) {
        const Symptom& sym = r.symptoms[s];
        if (sym.firstSeen == NoTime)
            continue;
        const int node = nodeIndex.at(sym.node);
        data.symptomNode[s] = node;
        NodeTrack& track = data.nodes[node];
        const TimeNs last = sym.lastSeen == NoTime ? sym.firstSeen : sym.lastSeen;
        track.bars.push_back({data.origin.toSeconds(sym.firstSeen), data.origin.toSeconds(last), static_cast<int>(s),
                              sym.gpu, symptomDomain[s], static_cast<std::uint8_t>(analysis.symptomRole[s])});
        domainSeen[symptomDomain[s]] = true;
        if (sym.gpu >= 0 && !std::binary_search(track.gpus.begin(), track.gpus.end(), sym.gpu)) {
            auto it = std::lower_bound(track.gpus.begin(), track.gpus.end(), sym.gpu);
            track.gpuMarks.insert(track.gpuMarks.begin() + (it - track.gpus.begin()), std::vector<Mark>{});
            track.gpus.insert(it, sym.gpu);
        }
    }
}

void Builder::sortTracks()
{
    const auto byX = [](const Mark& a, const Mark& b) { return a.x < b.x; };
    const auto sortMarks = [&](std::vector<Mark>& v) {
        if (!std::is_sorted(v.begin(), v.end(), byX))
            std::stable_sort(v.begin(), v.end(), byX);
    };
    for (auto& track : data.nodes) {
        sortMarks(track.all);
        sortMarks(track.nodeLevel);
        for (auto& g : track.gpuMarks)
            sortMarks(g);
        track.allBlocks = summarizeBlocks(track.all);
        track.nodeLevelBlocks = summarizeBlocks(track.nodeLevel);
        track.gpuBlocks.clear();
        for (const auto& g : track.gpuMarks)
            track.gpuBlocks.push_back(summarizeBlocks(g));
        std::stable_sort(track.bars.begin(), track.bars.end(), [](const SymptomBar& a, const SymptomBar& b) {
            return a.role != b.role ? a.role < b.role : a.start < b.start;
        });
    }
    for (std::size_t d = 0; d < domainSeen.size(); ++d) {
        if (domainSeen[d])
            data.domainsPresent.push_back(static_cast<std::uint8_t>(d));
    }
}

/// First and last time of the symptoms that make up the failure (active or demoted); NaN without any.
std::pair<double, double> failureBounds(const AnalysisResult& r, const TimeOrigin& origin)
{
    double lo = NAN;
    double hi = NAN;
    for (const auto& s : r.symptoms) {
        if (s.status == SymptomStatus::Scrubbed || s.firstSeen == NoTime)
            continue;
        const double a = origin.toSeconds(s.firstSeen);
        const double b = origin.toSeconds(s.lastSeen == NoTime ? s.firstSeen : s.lastSeen);
        lo = std::isnan(lo) ? a : std::min(lo, a);
        hi = std::isnan(hi) ? b : std::max(hi, b);
    }
    return {lo, hi};
}

void markClocks(const AnalysisResult& r, const std::unordered_map<std::string, int>& nodeIndex, TimelineData& data)
{
    // Only corrected clocks are marked on the lanes; offsets within the anchors' jitter are listed in Coverage.
    for (const ClockOffset& o : r.clockOffsets) {
        auto it = nodeIndex.find(o.node);
        if (it == nodeIndex.end() || !o.applied)
            continue;
        NodeTrack& track = data.nodes[static_cast<std::size_t>(it->second)];
        track.clockCorrected = o.applied;
        track.clockText = QStringLiteral("clock %1%2 s \u00b1%3 s, corrected")
                              .arg(o.offset >= 0 ? QStringLiteral("+") : QString())
                              .arg(static_cast<double>(o.offset) / 1e9, 0, 'f', 2)
                              .arg(static_cast<double>(o.uncertainty) / 1e9, 0, 'f', 2);
    }
}

/// Earliest and latest known times of events and symptoms.
std::pair<TimeNs, TimeNs> timeBounds(const AnalysisResult& r)
{
    TimeNs lo = std::numeric_limits<TimeNs>::max();
    TimeNs hi = std::numeric_limits<TimeNs>::min();
    const auto take = [&](TimeNs t) {
        if (t != NoTime) {
            lo = std::min(lo, t);
            hi = std::max(hi, t);
        }
    };
    for (const auto& e : r.events)
        take(e.time);
    for (const auto& s : r.symptoms) {
        take(s.firstSeen);
        take(s.lastSeen);
    }
    if (lo > hi)
        return {0, NsPerSec};
    return {lo, hi};
}

}  // namespace

std::shared_ptr<const TimelineData> TimelineData::build(const AnalysisData& analysis)
{
    auto data = std::make_shared<TimelineData>();
    const AnalysisResult& r = analysis.r();
    const auto [lo, hi] = timeBounds(r);
    data->hasTimes = std::any_of(r.events.begin(), r.events.end(), [](const Event& e) { return e.time != NoTime; }) ||
        std::any_of(r.symptoms.begin(), r.symptoms.end(), [](const Symptom& s) { return s.firstSeen != NoTime; });
    data->origin.origin = lo - (lo % NsPerSec + NsPerSec) % NsPerSec;
    data->minX = data->origin.toSeconds(lo);
    data->maxX = std::max(data->origin.toSeconds(hi), data->minX + 1e-3);
    Builder b{analysis, *data, {}, {}, 0, {}};
    b.collectNodes();
    b.placeEvents();
    b.placeBars();
    b.sortTracks();
    markClocks(r, b.nodeIndex, *data);
    const auto [failLo, failHi] = failureBounds(r, data->origin);
    data->failStart = std::isnan(failLo) ? data->minX : failLo;
    data->failEnd = std::isnan(failHi) ? data->maxX : failHi;
    for (const auto& track : data->nodes) {
        data->eventsBeforeFailure +=
            static_cast<std::size_t>(std::lower_bound(track.all.begin(), track.all.end(), data->failStart,
                                                      [](const Mark& m, double x) { return m.x < x - 1e-9; }) -
                                     track.all.begin());
    }
    if (r.verdict.rootCause && r.verdict.rootCause->time != NoTime) {
        data->rootX = data->origin.toSeconds(r.verdict.rootCause->time);
        auto it = b.nodeIndex.find(r.verdict.rootCause->node);
        data->rootNode = it != b.nodeIndex.end() ? it->second : -1;
        data->rootGpu = r.verdict.rootCause->gpu;
    }
    return data;
}

std::pair<double, double> TimelineData::failureView() const
{
    // Margins of 15% on each side keep the window at 1 / 1.3 = 77% of the plot width.
    double lo = failStart;
    double hi = failEnd;
    if (hi - lo < MinFailureSpan) {
        const double mid = (lo + hi) / 2;
        lo = mid - MinFailureSpan / 2;
        hi = mid + MinFailureSpan / 2;
    }
    const double pad = (hi - lo) * 0.15;
    return {lo - pad, hi + pad};
}

TimelineData::LaneMarks TimelineData::laneMarks(const LaneLayout& layout, int lane) const
{
    if (lane < 0 || lane >= layout.laneCount())
        return {};
    const Lane& l = layout.lane(lane);
    const NodeTrack& track = nodes[l.node];
    if (l.gpu >= 0) {
        auto it = std::lower_bound(track.gpus.begin(), track.gpus.end(), l.gpu);
        if (it == track.gpus.end() || *it != l.gpu)
            return {};
        const auto slot = static_cast<std::size_t>(it - track.gpus.begin());
        return {track.gpuMarks[slot], track.gpuBlocks[slot]};
    }
    if (l.expanded)
        return {track.nodeLevel, track.nodeLevelBlocks};
    return {track.all, track.allBlocks};
}

bool TimelineData::barOnLane(const SymptomBar& bar, const Lane& lane)
{
    if (!lane.expanded && lane.gpu < 0)
        return true;
    return bar.gpu == lane.gpu;
}

std::pair<std::vector<std::string>, std::vector<std::vector<int>>> TimelineData::laneNodes() const
{
    std::pair<std::vector<std::string>, std::vector<std::vector<int>>> out;
    for (const auto& n : nodes) {
        out.first.push_back(n.name);
        out.second.push_back(n.gpus);
    }
    return out;
}

}  // namespace attrib::views
