// SPDX-License-Identifier: GPL-3.0-or-later
// DuplicateRankClaims (early phase). Frameworks print each process's place in the job when it joins
// (`Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/8`): the `claim_types` events, with the rank and the
// world size (attribute `world`). When the launch is wrong (a Slurm job without the nodes or tasks the trainer
// expects, NODE_RANK unset on the second node), every node believes it is the first: each rank of the first node
// is claimed twice and the ranks above it never are, and rendezvous hangs or fails. The rule raises `symptom` on
// the duplicated claim when both hold for one world size:
// - a claim is made twice: on two different nodes, by two launcher tasks (the line's `srun -l` label or rank
//   prefix, attribute `line_rank`, differs), or twice in one file with another rank's first claim after the repeat
//   (interleaved output of processes that started together; a restart repeats the whole round after it, and a file
//   that repeats its claims only that way is left alone);
// - fewer distinct ranks are claimed than the world holds.
// The symptom is the job's (no node): the nodes did what the launch told them.
// Observation ids follow line order within a file, and one file's ids form one run, so an interleaving is only
// ever seen within a file.
#include "rules/cpp/rank_claims.h"
#include "rules/cpp/early_step.h"

#include "engine/json_util.h"
#include "engine/number.h"
#include "engine/pipeline.h"

#include <algorithm>
#include <map>
#include <set>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

namespace {

/// One claimed rank of one world: where it was claimed.
struct Claim {
    std::vector<std::uint64_t> observations;  ///< in id order
    std::set<std::string> nodes;              ///< the known nodes that claimed it
    std::set<std::string> tasks;              ///< the launcher tasks (line prefixes) that claimed it
    std::size_t event = 0;                    ///< the event that holds the repeat (or the first claim)
};

/// The claims of one world size made by one rule's lines.
struct World {
    int size = 0;
    std::map<int, Claim> ranks;
};

class DuplicateRankClaims final : public CodeRule {
public:
    explicit DuplicateRankClaims(const json& c)
        : m_claims(stringsAt(c, "claim_types"))
        , m_symptom(c.value("symptom", "duplicate_rank_claims"))
    {
    }

    std::string id() const override { return "DuplicateRankClaims"; }
    std::string description() const override
    {
        return "Raises a launch misconfiguration when the same global rank is claimed twice and the ranks above "
               "are never claimed";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext&, const Catalog&,
                           TraceSink& trace) const override
    {
        for (auto& [key, world] : collect(events)) {
            const auto repeat = duplicated(world);
            if (!repeat || static_cast<int>(world.ranks.size()) >= world.size)
                continue;
            raise(events, world, *repeat, trace);
        }
        return events;
    }

private:
    using Worlds = std::map<std::pair<std::string, int>, World>;  ///< (rule, world size) -> claims

    Worlds collect(const std::vector<Event>& events) const
    {
        Worlds worlds;
        for (std::size_t i = 0; i < events.size(); ++i) {
            const Event& e = events[i];
            if (std::find(m_claims.begin(), m_claims.end(), e.type.str()) == m_claims.end() || e.rank < 0)
                continue;
            const auto size = parseIntegerIn<int>(eventAttr(e, "world"), 1, 1 << 24);
            if (!size || e.rank >= *size)
                continue;  // a claim outside its own world says nothing about the launch
            World& world = worlds[{std::string(e.rule.str()), *size}];
            world.size = *size;
            Claim& claim = world.ranks[e.rank];
            const bool repeat = !claim.observations.empty() || e.observations.size() > 1;
            if (claim.observations.empty() || repeat)
                claim.event = i;
            claim.observations.insert(claim.observations.end(), e.observations.begin(), e.observations.end());
            if (!e.node.empty())
                claim.nodes.insert(std::string(e.node.str()));
            if (const std::string task = eventAttr(e, "line_rank"); !task.empty())
                claim.tasks.insert(task);
        }
        for (auto& [key, world] : worlds)
            for (auto& [rank, claim] : world.ranks)
                std::sort(claim.observations.begin(), claim.observations.end());
        return worlds;
    }

    /// The lowest rank claimed twice in a way a restart cannot explain.
    static std::optional<int> duplicated(const World& world)
    {
        for (const auto& [rank, claim] : world.ranks) {
            if (claim.nodes.size() > 1 || claim.tasks.size() > 1)
                return rank;
            if (claim.observations.size() < 2)
                continue;
            const std::uint64_t repeat = claim.observations[1];
            for (const auto& [other, otherClaim] : world.ranks)
                if (other != rank && otherClaim.observations.front() > repeat)
                    return rank;
        }
        return std::nullopt;
    }

    void raise(std::vector<Event>& events, const World& world, int rank, TraceSink& trace) const
    {
        const Claim& claim = world.ranks.at(rank);
        Event& e = events[claim.event];
        e.symptom = m_symptom;
        makeJobWide(e);  // the launch's fault, not a node's: whichever node repeated the claim did as it was told
        e.attrs["claimed_rank"] = std::to_string(rank);  // in the summary; not the symptom's place: no rank is at fault
        e.attrs["world"] = std::to_string(world.size);
        e.attrs["claimed"] = std::to_string(world.ranks.size());
        e.attrs["missing_from"] = std::to_string(firstMissing(world));
        std::string nodes;
        for (const auto& n : claim.nodes)
            nodes += (nodes.empty() ? "" : ", ") + n;
        if (!nodes.empty())
            e.attrs["claim_nodes"] = nodes;
        TraceStep step = earlyStep(id(), TraceAction::DuplicateRanks);
        step.events = {e.id};
        step.summary = "rank " + std::to_string(rank) + " of " + std::to_string(world.size) + " claimed " +
            std::to_string(claim.observations.size()) + " times" + (nodes.empty() ? "" : " (on " + nodes + ")") + "; " +
            std::to_string(world.ranks.size()) + " distinct rank(s) claimed, rank " +
            std::to_string(firstMissing(world)) + " never";
        trace.record(std::move(step));
    }

    static int firstMissing(const World& world)
    {
        int rank = 0;
        while (world.ranks.count(rank) != 0)
            ++rank;
        return rank;
    }

    std::vector<std::string> m_claims;
    std::string m_symptom;
};

}  // namespace

std::unique_ptr<CodeRule> makeDuplicateRankClaims(const json& config)
{
    return std::make_unique<DuplicateRankClaims>(config);
}

}  // namespace attrib::rules
