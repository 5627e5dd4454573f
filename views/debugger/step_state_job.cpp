// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/debugger/step_state_job.h"

namespace attrib::views {

StepStateJob::StepStateJob(QObject* parent)
    : QObject(parent)
{
}

StepStatePtr StepStateJob::compute(const engine::TraceReplay& replay, int step, bool withResult,
                                   const engine::CancelFlag* cancel)
{
    auto state = std::make_shared<StepState>();
    state->step = step;
    if (step < 0 || static_cast<std::size_t>(step) >= replay.stepCount())
        return state;
    const auto index = static_cast<std::size_t>(step);
    state->states = replay.stateAt(index, cancel);
    if (withResult && !(cancel && cancel->load()))
        state->result = index + 1 == replay.stepCount() ? replay.snapshot() : replay.resultAt(index);
    return state;
}

void StepStateJob::cancel()
{
    m_runner.cancel();
    m_pending = false;
}

void StepStateJob::request(ReplayPtr replay, int step)
{
    m_pending = true;
    m_pendingStep = step;
    const bool withResult = m_resultWanted;
    auto work = [replay = std::move(replay), step, withResult](QPromise<StepStatePtr>& promise,
                                                               const engine::CancelFlag& cancel) {
        if (cancel.load())
            return;
        auto state = replay ? compute(*replay, step, withResult, &cancel) : std::make_shared<StepState>();
        if (!cancel.load())
            promise.addResult(std::move(state));
    };
    JobHandlers<StepStatePtr> on;
    on.result = [this](const StepStatePtr& state) {
        m_pending = false;
        Q_EMIT ready(state);
    };
    m_runner.start<StepStatePtr>(std::move(work), std::move(on));
}

}  // namespace attrib::views
