// SPDX-License-Identifier: GPL-3.0-or-later
// NcclHangCulprit (early phase). In a collective hang every healthy rank logs a watchdog timeout for the same
// SeqNum of the same process group within about a second; the ranks that did not (never enqueued it, are
// behind in "last enqueued NCCL work", or wait in another collective) are where the hang began
// (shared/reference/domain.md §5.1, §12.12, §13.4). This rule groups the timeouts, finds the expected ranks
// (NCCL init "rank R nranks N" lines, the context's rank map, every rank seen in the evidence), and emits
// a culprit event on each culprit's node, a mismatch event when ranks disagree on the collective, or an
// honest "no culprit" event when every expected rank timed out.
#include "rules/cpp/nccl_hang.h"
#include "rules/cpp/early_step.h"

#include "engine/json_util.h"
#include "engine/number.h"
#include "engine/pipeline.h"

#include <algorithm>
#include <set>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

std::string compressRanks(const std::vector<int>& input)
{
    std::vector<int> r = input;
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    std::string out;
    for (std::size_t i = 0; i < r.size();) {
        std::size_t j = i;
        while (j + 1 < r.size() && r[j + 1] == r[j] + 1)
            ++j;
        out += (out.empty() ? "" : ",") + std::to_string(r[i]) + (j > i ? "-" + std::to_string(r[j]) : "");
        i = j + 1;
    }
    return out;
}

namespace {

long toLong(const std::string& s, long fallback = -1)
{
    return parseInteger<long>(s).value_or(fallback);
}

/// A timeout in milliseconds: at most ten years, so that it converts to nanoseconds without overflow.
long timeoutOf(const Event& e)
{
    return static_cast<long>(durationMs(eventAttr(e, "timeout_ms")).value_or(0));
}

using Key = std::pair<std::string, long>;  // (process group, SeqNum)

bool stamped(const Event& e)
{
    return e.time != NoTime && (e.timeSource == TimeSource::Absolute || e.timeSource == TimeSource::YearInferred);
}

/// A line with its own stamp beats one that borrowed the previous line's time (dateless PyTorch <= 2.1 lines).
bool earlier(const Event& e, const Event* than)
{
    if (!than)
        return true;
    if (stamped(e) != stamped(*than))
        return stamped(e);
    return e.time != NoTime && (than->time == NoTime || e.time < than->time);
}

/// The watchdog timeouts of one collective.
struct Group {
    Key key;
    std::map<int, const Event*> ranks;            // rank -> its (first) timeout event
    std::map<std::string, std::vector<int>> ops;  // "ALLREDUCE numel 26214400" -> ranks
    const Event* first = nullptr;
    std::set<long> sizes;  // member counts its timeouts' element counts give (all-gather, reduce-scatter)
    long size = 0;         // the members by those counts when they agree; 0 unknown
};

/// The group size an all-gather or reduce-scatter implies: each member contributes NumelIn and receives
/// NumelOut = NumelIn x size (all-gather), or the reverse (reduce-scatter). -1 when the line has no counts
/// (another form of the timeout), 0 when its counts do not give a size.
long sizeFromCounts(const Event& e)
{
    const std::string op = eventAttr(e, "op");
    const long in = toLong(eventAttr(e, "numel_in"), 0);
    const long out = toLong(eventAttr(e, "numel_out"), 0);
    if (in <= 0 || out <= 0)
        return -1;
    const auto ratio = [](long big, long small) { return big % small == 0 && big / small >= 2 ? big / small : 0; };
    if (op.find("ALLGATHER") != std::string::npos)
        return ratio(out, in);
    if (op.find("REDUCE_SCATTER") != std::string::npos)
        return ratio(in, out);
    return 0;
}

/// What the evidence says about every rank: where it ran, what it logged, how far it got.
struct RankFacts {
    std::map<int, std::string> node;
    std::map<int, int> gpu;
    std::set<int> seen;                                        // ranks with any event of their own
    std::map<std::pair<int, std::string>, long> lastEnqueued;  // (rank, pg) -> highest "last enqueued"
    std::map<int, std::vector<Key>> timedOut;                  // rank -> collectives it timed out in
    std::map<int, const Event*> lastEvent;
    std::map<std::string, std::map<int, const Event*>> pgRanks;  // non-default PG -> its (PG-local) ranks
    long world = 0;                                              // largest nranks of an NCCL communicator
};

class NcclHangCulprit final : public CodeRule {
public:
    explicit NcclHangCulprit(const json& c)
        : m_timeoutEvent(c.value("timeout_event", std::string("watchdog_timeout")))
        , m_progressEvent(c.value("progress_event", std::string("watchdog_progress")))
        , m_initEvent(c.value("init_event", std::string("nccl_comm_init")))
        , m_culprit(c.value("culprit_symptom", std::string("collective_hang_culprit")))
        , m_noCulprit(c.value("no_culprit_symptom", std::string("nccl_hang_no_culprit")))
        , m_mismatch(c.value("mismatch_symptom", std::string("collective_mismatch")))
        , m_minRanks(c.value("min_timed_out_ranks", 2))
        , m_minAgree(c.value("min_agree_fraction", 0.5))
        , m_maxCulprits(c.value("max_culprit_fraction", 0.5))
        , m_margin(static_cast<TimeNs>(c.value("origin_margin_s", 120.0) * 1e9))
        , m_oneOutputMax(c.value("max_one_output_members", 0L))
    {
    }

    std::string id() const override { return "NcclHangCulprit"; }
    std::string description() const override
    {
        return "Groups watchdog timeouts by (process group, SeqNum) and names the ranks that did not time out or "
               "are behind as the culprits of the hang";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext& context, const Catalog&,
                           TraceSink& trace) const override;

private:
    std::map<Key, Group> groupTimeouts(const std::vector<Event>& events) const;
    RankFacts collectFacts(const std::vector<Event>& events, const ExecutionContext& context,
                           const std::map<Key, Group>& groups) const;
    std::set<int> expectedRanks(RankFacts& facts, const Group& g) const;
    bool oneOutput(const Group& g, const RankFacts& facts, const ExecutionContext& context) const;
    std::string whyCulprit(int rank, const Group& g, const RankFacts& facts) const;
    void emitMismatch(const Group& g, const RankFacts& facts, std::vector<Event>& out, TraceSink& trace) const;
    void emitCulprits(const Group& g, const std::map<int, std::string>& culprits, const RankFacts& facts,
                      std::size_t expected, std::vector<Event>& out, TraceSink& trace) const;
    void emitNoCulprit(const Group& g, const std::string& reason, const std::vector<int>& unseen, std::size_t expected,
                       std::vector<Event>& out, TraceSink& trace) const;
    Event baseEvent(const Group& g, const std::string& type, const std::string& symptom) const;
    void recordNearby(const Group& g, const std::string& node, const std::vector<Event>& events,
                      TraceSink& trace) const;

    std::string m_timeoutEvent, m_progressEvent, m_initEvent, m_culprit, m_noCulprit, m_mismatch;
    int m_minRanks;
    double m_minAgree, m_maxCulprits;
    TimeNs m_margin;
    long m_oneOutputMax;  // the largest collective one node's launcher output holds all members of (0: none)
};

std::map<Key, Group> NcclHangCulprit::groupTimeouts(const std::vector<Event>& events) const
{
    // The PG of a timeout: its own [PG n ...] prefix, else the progress line of the same rank and SeqNum,
    // else the only PG any rank reported for that SeqNum.
    std::map<std::pair<int, long>, std::string> pgOf;
    std::map<long, std::set<std::string>> pgsAtSeq;
    for (const auto& e : events) {
        if ((e.type == m_progressEvent || e.type == m_timeoutEvent) && !eventAttr(e, "pg").empty()) {
            pgOf[{e.rank, toLong(eventAttr(e, "seq"))}] = eventAttr(e, "pg");
            pgsAtSeq[toLong(eventAttr(e, "seq"))].insert(eventAttr(e, "pg"));
        }
    }
    std::map<Key, Group> groups;
    for (const auto& e : events) {
        if (e.type != m_timeoutEvent || e.rank < 0)
            continue;
        const long seq = toLong(eventAttr(e, "seq"));
        std::string pg = eventAttr(e, "pg");
        if (auto it = pgOf.find({e.rank, seq}); pg.empty() && it != pgOf.end())
            pg = it->second;
        if (pg.empty() && pgsAtSeq[seq].size() == 1)
            pg = *pgsAtSeq[seq].begin();
        Group& g = groups[{pg.empty() ? "?" : pg, seq}];
        g.key = {pg.empty() ? "?" : pg, seq};
        if (const long size = sizeFromCounts(e); size >= 0)
            g.sizes.insert(size);
        if (!g.ranks.emplace(e.rank, &e).second)
            continue;
        const std::string numel = eventAttr(e, "numel_in");
        g.ops[eventAttr(e, "op") + (numel.empty() ? "" : " numel " + numel)].push_back(e.rank);
        if (earlier(e, g.first))
            g.first = &e;
    }
    for (auto& [key, g] : groups)
        g.size = g.sizes.size() == 1 ? *g.sizes.begin() : 0;  // only when every line with counts agrees
    return groups;
}

RankFacts NcclHangCulprit::collectFacts(const std::vector<Event>& events, const ExecutionContext& context,
                                        const std::map<Key, Group>& groups) const
{
    RankFacts f;
    for (const auto& [rank, where] : context.rankMap) {
        f.node[rank] = where.first;
        f.gpu[rank] = where.second;
        f.seen.insert(rank);
    }
    for (const auto& e : events) {
        if (e.type == m_initEvent)
            f.world = std::max(f.world, toLong(eventAttr(e, "nranks"), 0));
        if (e.rank < 0)
            continue;
        f.seen.insert(e.rank);
        f.lastEvent[e.rank] = &e;
        if (!e.node.empty())
            f.node.emplace(e.rank, e.node);
        if (e.gpu >= 0)
            f.gpu.emplace(e.rank, e.gpu);
        if ((e.type == m_progressEvent || e.type == m_timeoutEvent) && !eventAttr(e, "pg").empty())
            f.pgRanks[eventAttr(e, "pg")].emplace(e.rank, &e);
        if (e.type == m_progressEvent) {
            long& enq = f.lastEnqueued[{e.rank, eventAttr(e, "pg")}];
            enq = std::max(enq, toLong(eventAttr(e, "last_enqueued")));
        }
    }
    for (const auto& [key, g] : groups)
        for (const auto& [rank, e] : g.ranks)
            f.timedOut[rank].push_back(key);
    return f;
}

/// The ranks expected in collective `g`. For a sub-group, `facts` becomes that group's view (its PG-local ranks'
/// nodes, no GPUs): changed in place, as a copy of every rank's facts was a large item of the memory peak.
std::set<int> NcclHangCulprit::expectedRanks(RankFacts& facts, const Group& g) const
{
    const std::string& pg = g.key.first;
    std::set<int> expected;
    if (pg != "0" && pg != "?") {
        // A sub-group's watchdog names PG-local ranks: its members are the ranks that logged lines of that PG.
        facts.node.clear();
        facts.gpu.clear();
        facts.seen.clear();
        for (const auto& [rank, e] : facts.pgRanks.at(pg)) {
            expected.insert(rank);
            facts.seen.insert(rank);
            facts.node[rank] = e->node;
        }
        return expected;
    }
    expected = facts.seen;
    // The default group's all-gather or reduce-scatter counts its members when no communicator line does.
    const long world = facts.world > 0 ? facts.world : (pg == "0" ? g.size : 0);
    for (long r = 0; r < world && r < 1'000'000; ++r)
        expected.insert(static_cast<int>(r));
    return expected;
}

/// Whether the timeouts are one output that would hold every member's lines: the collective's own counts give
/// its size, no larger than one node's launcher output holds (config `max_one_output_members`), no communicator
/// line or rank map says where the other ranks ran, and every timeout came from one node or from none (a pasted
/// excerpt, one launcher's interleaved `[rankN]:` stream). A member with no line of its own in such an output
/// never reported the timeout; across per-node logs, or in a larger job's excerpt, it may only be uncollected.
bool NcclHangCulprit::oneOutput(const Group& g, const RankFacts& facts, const ExecutionContext& context) const
{
    if (g.size <= 0 || g.size > m_oneOutputMax || g.key.first != "0" || facts.world > 0 || !context.rankMap.empty())
        return false;
    const Name& node = g.ranks.begin()->second->node;
    return std::all_of(g.ranks.begin(), g.ranks.end(), [&](const auto& r) { return r.second->node == node; });
}

std::string NcclHangCulprit::whyCulprit(int rank, const Group& g, const RankFacts& facts) const
{
    if (auto it = facts.lastEnqueued.find({rank, g.key.first});
        it != facts.lastEnqueued.end() && it->second >= 0 && it->second < g.key.second)
        return "behind: last enqueued NCCL work " + std::to_string(it->second);
    if (auto it = facts.timedOut.find(rank); it != facts.timedOut.end() && !it->second.empty()) {
        const Key& other = it->second.front();
        return "waiting in another collective: PG " + other.first + " SeqNum " + std::to_string(other.second);
    }
    return "never reached it: no timeout logged";
}

Event NcclHangCulprit::baseEvent(const Group& g, const std::string& type, const std::string& symptom) const
{
    // Dated when the collective began (the first timeout minus Timeout(ms)): that is when the culprit failed
    // to join, and where a causal window should look.
    const Event& first = *g.first;
    const long timeoutMs = timeoutOf(first);
    Event e;
    e.type = type;
    e.rule = id();
    e.symptom = symptom;
    e.time = first.time == NoTime ? NoTime : first.time - timeoutMs * NsPerMs;
    e.timeSource = first.timeSource;
    e.observations = first.observations;
    e.attrs["timeouts_at"] = formatTime(first.time, first.timeSource);
    e.attrs["seq"] = std::to_string(g.key.second);
    e.attrs["pg"] = g.key.first;
    e.attrs["op"] = eventAttr(first, "op");
    e.attrs["timeout_ms"] = eventAttr(first, "timeout_ms");
    e.attrs["timed_out"] = std::to_string(g.ranks.size());
    return e;
}

void NcclHangCulprit::emitMismatch(const Group& g, const RankFacts& facts, std::vector<Event>& out,
                                   TraceSink& trace) const
{
    // The largest set of ranks agrees on the collective; the others issued something else.
    auto majority = std::max_element(g.ops.begin(), g.ops.end(),
                                     [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
    std::string seen;
    for (const auto& [op, ranks] : g.ops)
        seen += (seen.empty() ? "" : "; ") + op + " on rank(s) " + compressRanks(ranks);
    std::map<std::string, std::vector<int>> byNode;
    for (const auto& [op, ranks] : g.ops)
        if (op != majority->first)
            for (int r : ranks)
                byNode[facts.node.count(r) ? facts.node.at(r) : g.ranks.at(r)->node.str()].push_back(r);
    for (const auto& [node, ranks] : byNode) {
        Event e = baseEvent(g, "collective_mismatch", m_mismatch);
        e.node = node;
        e.rank = ranks.front();
        e.observations = g.ranks.at(ranks.front())->observations;
        e.attrs["ranks"] = compressRanks(ranks);
        e.attrs["collectives"] = seen;
        out.push_back(std::move(e));
    }
    TraceStep step = earlyStep(id(), TraceAction::Mismatch);
    step.summary = "ranks disagree on PG " + g.key.first + " SeqNum " + std::to_string(g.key.second) + ": " + seen;
    step.details["majority"] = majority->first;
    trace.record(std::move(step));
}

void NcclHangCulprit::emitCulprits(const Group& g, const std::map<int, std::string>& culprits, const RankFacts& facts,
                                   std::size_t expected, std::vector<Event>& out, TraceSink& trace) const
{
    std::map<std::string, std::vector<int>> byNode;
    std::vector<int> all;
    for (const auto& [rank, why] : culprits) {
        byNode[facts.node.count(rank) ? facts.node.at(rank) : std::string()].push_back(rank);
        all.push_back(rank);
    }
    for (const auto& [node, ranks] : byNode) {
        Event e = baseEvent(g, "hang_culprit", m_culprit);
        e.node = node;
        e.rank = ranks.front();
        e.gpu = facts.gpu.count(e.rank) ? facts.gpu.at(e.rank) : -1;
        e.attrs["missing_ranks"] = compressRanks(ranks);
        e.attrs["all_culprits"] = compressRanks(all);
        e.attrs["expected"] = std::to_string(expected);
        e.attrs["why"] = culprits.at(ranks.front());
        if (auto last = facts.lastEvent.find(ranks.front()); last != facts.lastEvent.end())
            for (auto obs : last->second->observations)
                e.observations.push_back(obs);
        TraceStep step = earlyStep(id(), TraceAction::Culprit);
        step.node = node;
        step.summary = "rank(s) " + compressRanks(ranks) + " on " + (node.empty() ? "an unknown node" : node) +
            " did not time out in PG " + g.key.first + " SeqNum " + std::to_string(g.key.second) + " while " +
            std::to_string(g.ranks.size()) + " of " + std::to_string(expected) + " ranks did (" + e.attrs["why"] + ")";
        step.details = e.attrs.toMap();
        trace.record(std::move(step));
        out.push_back(std::move(e));
    }
}

void NcclHangCulprit::emitNoCulprit(const Group& g, const std::string& reason, const std::vector<int>& unseen,
                                    std::size_t expected, std::vector<Event>& out, TraceSink& trace) const
{
    Event e = baseEvent(g, "hang_no_culprit", m_noCulprit);
    e.attrs["expected"] = std::to_string(expected);
    e.attrs["reason"] = reason;
    e.attrs["unseen_ranks"] = unseen.empty() ? "none" : compressRanks(unseen);
    TraceStep step = earlyStep(id(), TraceAction::NoCulprit);
    step.summary = "PG " + g.key.first + " SeqNum " + std::to_string(g.key.second) + ": " + reason;
    step.details = e.attrs.toMap();
    trace.record(std::move(step));
    out.push_back(std::move(e));
}

void NcclHangCulprit::recordNearby(const Group& g, const std::string& node, const std::vector<Event>& events,
                                   TraceSink& trace) const
{
    // Where to look: what the culprit's node logged around the start of the collective (timeout earlier).
    if (g.first->time == NoTime)
        return;
    const TimeNs start = g.first->time - timeoutOf(*g.first) * NsPerMs;
    TraceStep step = earlyStep(id(), TraceAction::LookBack);
    step.node = node;
    step.windowStart = start - m_margin;
    step.windowEnd = start + m_margin;
    std::string found;
    for (const auto& e : events)
        if (e.node == node && !e.symptom.empty() && e.time != NoTime && e.time >= step.windowStart &&
            e.time <= step.windowEnd) {
            found += (found.empty() ? "" : ", ") + e.symptom;
            step.events.push_back(e.id);
        }
    step.fired = !found.empty();
    step.summary = "around the collective's start on " + node + ": " + (found.empty() ? "nothing logged" : found);
    trace.record(std::move(step));
}

std::vector<Event> NcclHangCulprit::run(std::vector<Event> events, ExecutionContext& context, const Catalog&,
                                        TraceSink& trace) const
{
    const auto groups = groupTimeouts(events);
    if (groups.empty())
        return events;
    const Group* g = nullptr;
    for (const auto& [key, group] : groups)
        if (!g || group.ranks.size() > g->ranks.size())
            g = &group;
    RankFacts facts = collectFacts(events, context, groups);
    const std::set<int> expected = expectedRanks(facts, *g);
    TraceStep look = earlyStep(id(), TraceAction::Group);
    look.summary = std::to_string(groups.size()) + " collective(s) timed out; the largest is PG " + g->key.first +
        " SeqNum " + std::to_string(g->key.second) + " on " + std::to_string(g->ranks.size()) + " of " +
        std::to_string(expected.size()) + " expected rank(s)";
    look.details["world"] = std::to_string(facts.world);
    const bool enough = static_cast<int>(g->ranks.size()) >= m_minRanks && !expected.empty() &&
        static_cast<double>(g->ranks.size()) >= m_minAgree * static_cast<double>(expected.size());
    look.fired = enough;
    trace.record(std::move(look));
    if (!enough)
        return events;
    std::vector<Event> added;
    if (g->ops.size() > 1)
        emitMismatch(*g, facts, added, trace);
    std::map<int, std::string> culprits;
    std::vector<int> unseen;
    const bool single = oneOutput(*g, facts, context);
    for (int r : expected) {
        if (g->ranks.count(r))
            continue;
        if (facts.seen.count(r))
            culprits[r] = whyCulprit(r, *g, facts);
        else if (single) {
            culprits[r] = "no line of its own in the output that holds the other " + std::to_string(g->ranks.size()) +
                " members' timeouts, of the " + std::to_string(g->size) + " its counts give";
            if (const Name& node = g->ranks.begin()->second->node; !node.empty())
                facts.node.emplace(r, node.str());  // one node's output: its members ran there
        } else
            unseen.push_back(r);
    }
    const double share = static_cast<double>(culprits.size()) / static_cast<double>(expected.size());
    if (!culprits.empty() && share <= m_maxCulprits) {
        emitCulprits(*g, culprits, facts, expected.size(), added, trace);
        for (const auto& e : added)
            if (e.type == "hang_culprit" && !e.node.empty())
                recordNearby(*g, e.node, events, trace);
    } else if (g->ops.size() <= 1) {
        const std::string reason = culprits.empty()
            ? (unseen.empty() ? "every expected rank timed out: no odd one out" : "every rank with logs timed out")
            : std::to_string(culprits.size()) + " ranks did not time out: too many to name a culprit";
        emitNoCulprit(*g, reason, unseen, expected.size(), added, trace);
    }
    events.reserve(events.size() + added.size());  // exactly: insert alone may double the capacity
    events.insert(events.end(), std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
    return events;
}

}  // namespace

std::unique_ptr<CodeRule> makeNcclHangCulprit(const json& config)
{
    return std::make_unique<NcclHangCulprit>(config);
}

}  // namespace attrib::rules
