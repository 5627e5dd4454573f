// SPDX-License-Identifier: GPL-3.0-or-later
// CheckpointOutlastsCollective (early phase). The rank that writes a checkpoint (often rank 0 alone) leaves the
// collective schedule while it writes; the other ranks enter the next collective and wait. When the save takes
// longer than the process group's timeout, their watchdogs fire and the loudest lines are NCCL timeouts, while the
// cause is the slow (or stalled) storage under the save. The evidence: a save that started (Megatron `saving
// checkpoint at iteration N`, DeepSpeed `Checkpoint <tag> is about to be saved!`, HF `Saving model checkpoint to`)
// and had not logged its end (`successfully saved checkpoint`, `is ready now!`) when a watchdog timeout fired,
// whose collective began when the save did (the timeout's time minus its Timeout(ms), within `slack_s`; a save
// that ended without an end line, as DeepSpeed's newer engines log none, is thus not blamed for a later hang).
//
// A hang *during* a save is not a slow write: sharded saves (FSDP state dicts, ZeRO-3 gathers, distributed
// checkpoint planning) are collectives themselves, and a rank that calls them differently (a collective mismatch)
// hangs every rank inside the save. So the save is blamed only when the saving rank was not itself waiting in a
// collective: no watchdog timeout of the saving rank (the save line's rank; rank 0 when the line names none, as
// Megatron, DeepSpeed, Hugging Face and Lightning log saves from rank 0 / the main process) while the save was
// open, and no `veto_types` event (collective mismatches) in the same span. Untimed events count in file order
// (the bundle's co-occurrence policy). The open save becomes the symptom.
#include "rules/cpp/checkpoint_stall.h"
#include "rules/cpp/early_step.h"

#include "engine/json_util.h"
#include "engine/number.h"
#include "engine/pipeline.h"

#include <algorithm>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

namespace {

bool isOneOf(const std::string& type, const std::vector<std::string>& types)
{
    return std::find(types.begin(), types.end(), type) != types.end();
}

class CheckpointOutlastsCollective final : public CodeRule {
public:
    explicit CheckpointOutlastsCollective(const json& c)
        : m_start(c.value("start_type", "checkpoint_save_start"))
        , m_done(c.value("done_type", "checkpoint_save_done"))
        , m_timeouts(stringsAt(c, "timeout_types"))
        , m_vetoes(stringsAt(c, "veto_types"))
        , m_symptom(c.value("symptom", "storage_checkpoint_save_stalled"))
        , m_slack(static_cast<TimeNs>(c.value("slack_s", 300.0) * 1e9))
        , m_activity(c.value("activity", "checkpoint save"))
    {
    }

    std::string id() const override { return "CheckpointOutlastsCollective"; }
    std::string description() const override
    {
        return "Names a checkpoint save that was still running when the other ranks' collective timed out";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext&, const Catalog&,
                           TraceSink& trace) const override
    {
        // events are in time order; untimed ones keep their file order
        for (std::size_t i = 0; i < events.size(); ++i) {
            if (events[i].type != m_start)
                continue;
            const Event* timeout = nullptr;
            std::string veto;
            for (std::size_t j = i + 1; j < events.size() && veto.empty(); ++j) {
                const Event& e = events[j];
                if (e.type == m_start || e.type == m_done)
                    break;  // the save ended (or the next began): later timeouts are not this save's
                if (isOneOf(e.type, m_vetoes))
                    veto = "a collective mismatch (" + e.type + ") while it was open";
                else if (isOneOf(e.type, m_timeouts) && outlasted(events[i], e)) {
                    if (e.rank >= 0 && e.rank == savingRank(events[i]))
                        veto = "its rank " + std::to_string(e.rank) + " itself timed out in a collective";
                    else if (!timeout)
                        timeout = &e;
                }
            }
            if (timeout && veto.empty())
                blame(events[i], *timeout, trace);
            else if (timeout)
                declined(events[i], *timeout, veto, trace);
        }
        return events;
    }

private:
    static int savingRank(const Event& save) { return save.rank >= 0 ? save.rank : 0; }

    bool outlasted(const Event& save, const Event& timeout) const
    {
        if (save.time == NoTime || timeout.time == NoTime)
            return true;  // no order to check: untimed events of one bundle co-occur
        // The collective that timed out began Timeout(ms) before the watchdog fired; the ranks that were not
        // saving enter it right after the save began (within `slack_s` either way of the save's first line).
        const TimeNs waited = parseInteger<std::int64_t>(eventAttr(timeout, "timeout_ms")).value_or(0) * NsPerMs;
        const TimeNs began = timeout.time - waited;
        return timeout.time >= save.time && began + m_slack >= save.time && began <= save.time + m_slack;
    }

    static TraceStep stepFor(const Event& save, const Event& timeout, TraceAction action)
    {
        TraceStep step = earlyStep("CheckpointOutlastsCollective", action);
        step.node = save.node;
        step.events = {save.id, timeout.id};
        return step;
    }

    void declined(const Event& save, const Event& timeout, const std::string& why, TraceSink& trace) const
    {
        TraceStep step = stepFor(save, timeout, TraceAction::HangInsideSave);
        step.fired = false;
        step.summary = "a collective timed out while a " + m_activity + " was open, but " + why +
            ": the ranks hang together (in the " + m_activity + "'s own collectives), not behind one rank's slow " +
            m_activity;
        trace.record(std::move(step));
    }

    void blame(Event& save, const Event& timeout, TraceSink& trace) const
    {
        save.symptom = m_symptom;
        save.attrs["timeout_ms"] = eventAttr(timeout, "timeout_ms").empty() ? "?" : eventAttr(timeout, "timeout_ms");
        save.attrs["timeout_rank"] = timeout.rank >= 0 ? std::to_string(timeout.rank) : "?";
        save.attrs["timeout_op"] = eventAttr(timeout, "op").empty() ? "a collective" : eventAttr(timeout, "op");
        TraceStep step = stepFor(save, timeout, TraceAction::CheckpointOutlasts);
        step.summary = m_activity + " started" + (save.node.empty() ? std::string() : " on " + save.node) +
            " and not finished when rank " + save.attrs["timeout_rank"] + "'s " + save.attrs["timeout_op"] +
            " timed out after " + save.attrs["timeout_ms"] + " ms; its rank was not in that collective";
        trace.record(std::move(step));
    }

    std::string m_start;
    std::string m_done;
    std::vector<std::string> m_timeouts;
    std::vector<std::string> m_vetoes;
    std::string m_symptom;
    TimeNs m_slack;
    std::string m_activity;  ///< what the open span is, in the trace's words ("checkpoint save")
};

}  // namespace

std::unique_ptr<CodeRule> makeCheckpointOutlastsCollective(const json& config)
{
    return std::make_unique<CheckpointOutlastsCollective>(config);
}

}  // namespace attrib::rules
