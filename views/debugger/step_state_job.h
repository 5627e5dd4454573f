// SPDX-License-Identifier: GPL-3.0-or-later
// The rule debugger's state at a step, computed off the GUI thread: the symptom set as of the step (and, when a
// view wants it, the analysis as it stood then). One job at a time through the views' JobRunner; a new request
// supersedes the running one and only the latest request's state is delivered, on the owner's thread.
#pragma once

#include "views/debugger/trace_step_model.h"
#include "views/job_runner.h"

#include <QObject>

#include <memory>
#include <vector>

namespace attrib::views {

/// What one request computed; shared so that handing it to the GUI thread copies no symptom.
struct StepState {
    int step = -1;
    std::vector<engine::SymptomState> states;  ///< TraceReplay::stateAt(step)
    engine::AnalysisSnapshot result;           ///< TraceReplay::resultAt(step), only when wanted
};
using StepStatePtr = std::shared_ptr<const StepState>;

class StepStateJob : public QObject {
    Q_OBJECT

public:
    explicit StepStateJob(QObject* parent = nullptr);

    /// Also compute the analysis as of the step (the final snapshot at the last step).
    void setResultWanted(bool wanted) { m_resultWanted = wanted; }
    /// Starts computing `step` of `replay`, superseding any request still running.
    void request(ReplayPtr replay, int step);
    /// Drops the running request (its state never arrives).
    void cancel();
    /// A request whose state has not arrived yet.
    bool isPending() const { return m_pending; }
    int pendingStep() const { return m_pendingStep; }
    /// Blocks until the running job ended (tests and shutdown only); its state arrives with the next events.
    void waitForIdle() { m_runner.waitForIdle(); }

    /// The computation itself (what the job runs; tests compare against it).
    static StepStatePtr compute(const engine::TraceReplay& replay, int step, bool withResult,
                                const engine::CancelFlag* cancel = nullptr);

Q_SIGNALS:
    /// The latest request's state, on the owner's thread.
    void ready(const attrib::views::StepStatePtr& state);

private:
    JobRunner m_runner{this};
    bool m_resultWanted = false;
    bool m_pending = false;
    int m_pendingStep = -1;
};

}  // namespace attrib::views
