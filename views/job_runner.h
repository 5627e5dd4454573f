// SPDX-License-Identifier: GPL-3.0-or-later
// The one way the GUI runs work off its thread: a JobRunner runs one job at a time on the jobs' own thread pool
// (QtConcurrent with a QPromise), never on Qt's global pool: Qt's raster painting hands work to the global pool, so
// long jobs there would stop the window from repainting until they end. Starting a job supersedes the running one (its
// cancel flag is set and its future cancelled); each job has a generation, and only the latest job's results, progress
// and end reach the owner, on the owner's thread. Used by the workbench's job controller, the rule bench's controller
// (catalog reloads and re-analyses), the corpus impact dialog, the search panel (index builds, regex scans), the cases
// controller (saving a case) and the rule debugger (the symptom set at a step: StepStateJob).
#pragma once

#include "engine/progress.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QPromise>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

namespace attrib::views {

/// The thread pool every JobRunner runs its jobs on (one thread per core), apart from Qt's global pool.
QThreadPool* jobThreadPool();

/// What a job's owner hears, all on the owner's thread and only from the latest job (except `ended`).
template <typename T> struct JobHandlers {
    std::function<void(const T&)> result;  ///< each result the job adds, unless it was cancelled
    std::function<void(const QString& text, int value)> progress;  ///< the promise's progress text and value
    std::function<void(bool cancelled)> finished;                  ///< the job ended (after its last result)
    std::function<void()> ended;  ///< every job, superseded ones too, once it ended (for busy counts)
};

class JobRunner {
public:
    explicit JobRunner(QObject* owner)
        : m_owner(owner)
    {
    }
    /// Stops every job still running, superseded ones included, and waits for them: a job may use what the
    /// owner holds, so none outlives the runner.
    ~JobRunner()
    {
        for (const Running& job : m_running) {
            *job.flag = true;
            if (job.watcher)
                job.watcher->cancel();
        }
        for (const Running& job : m_running) {
            if (job.watcher)
                job.watcher->waitForFinished();
        }
    }
    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;

    /// Supersedes the running job and runs `work(promise, cancelFlag)` on the thread pool. Returns its generation.
    template <typename T, typename Work> quint64 start(Work work, JobHandlers<T> on)
    {
        cancel();
        const quint64 generation = ++m_generation;
        auto flag = std::make_shared<engine::CancelFlag>(false);
        m_cancel = flag;
        auto* watcher = new QFutureWatcher<T>(m_owner);
        m_current = watcher;
        const auto latest = [this, generation] { return generation == m_generation; };
        if (on.result)
            QObject::connect(watcher, &QFutureWatcherBase::resultReadyAt, m_owner, [=](int index) {
                if (latest() && !watcher->isCanceled())
                    on.result(watcher->resultAt(index));
            });
        if (on.progress) {
            // Each update signals the value first, then the text; the text that goes with a value is the last
            // text signalled (the watcher's own accessors already hold later updates).
            auto text = std::make_shared<QString>();
            auto value = std::make_shared<int>(0);
            QObject::connect(watcher, &QFutureWatcherBase::progressTextChanged, m_owner, [=](const QString& t) {
                *text = t;
                if (latest())
                    on.progress(t, *value);
            });
            QObject::connect(watcher, &QFutureWatcherBase::progressValueChanged, m_owner, [=](int v) {
                *value = v;
                if (latest() && !text->isEmpty())
                    on.progress(*text, v);
            });
        }
        QObject::connect(watcher, &QFutureWatcherBase::finished, m_owner, [=] {
            watcher->deleteLater();
            if (latest() && on.finished)
                on.finished(watcher->isCanceled());
            if (on.ended)
                on.ended();
        });
        watcher->setFuture(QtConcurrent::run(
            jobThreadPool(), [work = std::move(work), flag](QPromise<T>& promise) { work(promise, *flag); }));
        std::erase_if(m_running, [](const Running& job) { return !job.watcher || job.watcher->isFinished(); });
        m_running.push_back({watcher, flag});
        return generation;
    }

    /// Asks the running job to stop (its cancel flag and its future); its results are dropped.
    void cancel()
    {
        if (m_cancel)
            *m_cancel = true;
        if (m_current)
            m_current->cancel();
    }
    /// Asks the running job to stop early but keeps its future: what it adds after stopping still arrives (for
    /// jobs that report partial results, such as a search that was stopped).
    void stop()
    {
        if (m_cancel)
            *m_cancel = true;
    }
    bool isRunning() const { return m_current && m_current->isRunning(); }
    /// Blocks until the latest job ends (tests and shutdown only).
    void waitForIdle()
    {
        if (m_current)
            m_current->waitForFinished();
    }
    quint64 generation() const { return m_generation; }
    /// The latest job's cancel flag (nullptr before the first job), for work that polls it.
    const engine::CancelFlag* cancelFlag() const { return m_cancel.get(); }

private:
    struct Running {
        QPointer<QFutureWatcherBase> watcher;  ///< deleted (null) once its end reached the owner
        std::shared_ptr<engine::CancelFlag> flag;
    };
    QObject* m_owner;
    QPointer<QFutureWatcherBase> m_current;
    std::vector<Running> m_running;  ///< every job not known to have ended, the latest last
    std::shared_ptr<engine::CancelFlag> m_cancel;
    quint64 m_generation = 0;
};

/// Engine progress as a job's progress text: `format` takes the done count as %1 and the total as %2. At most
/// about 15 updates a second reach the promise.
template <typename T> class PromiseProgress final : public engine::ProgressSink {
public:
    PromiseProgress(QPromise<T>& promise, QString format)
        : m_promise(promise)
        , m_format(std::move(format))
    {
    }
    void progress(engine::ProgressStage, std::uint64_t done, std::uint64_t total) override
    {
        const auto now = std::chrono::steady_clock::now();
        if (m_reported && now - m_last < std::chrono::milliseconds(66) && done != total)
            return;
        m_reported = true;
        m_last = now;
        const QString text =
            m_format.contains(QLatin1String("%2")) ? m_format.arg(done).arg(total) : m_format.arg(done);
        m_promise.setProgressValueAndText(++m_updates, text);  // Qt drops an update whose value does not grow
    }

private:
    QPromise<T>& m_promise;
    QString m_format;
    bool m_reported = false;
    int m_updates = 0;
    std::chrono::steady_clock::time_point m_last;
};

}  // namespace attrib::views
