// SPDX-License-Identifier: GPL-3.0-or-later
// Corpus impact from the workbench: the active catalog against a baseline (the session's first catalog,
// or a folder) over every bundle of a corpus, in the background (cancellable); the same table as `attrib replay`.
#pragma once

#include "app/bench/rule_bench_controller.h"
#include "engine/corpus_impact.h"
#include "views/job_runner.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace attrib::views {
class CorpusImpactModel;
}

namespace attrib::bench {

class CorpusImpactDialog : public QDialog {
    Q_OBJECT

public:
    CorpusImpactDialog(RuleBenchController* controller, QWidget* parent = nullptr);

    /// Runs over `corpus`; an empty `baselineDir` compares with the session's first catalog.
    void run(const QString& corpus, const QString& baselineDir = {});
    /// Stops a run between two analyses; `finished` follows with a summary that says so.
    void cancel();
    views::CorpusImpactModel* model() const { return m_model; }
    bool running() const { return m_running; }
    QString summary() const;
    /// The sample corpus of this installation or source tree.
    static QString defaultCorpus();

Q_SIGNALS:
    void finished();

private:
    void onFinished(engine::CorpusImpact impact);
    void onEnded(bool cancelled);

    RuleBenchController* m_controller;
    views::CorpusImpactModel* m_model;
    QLineEdit* m_corpus;
    QLineEdit* m_baseline;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_summary;
    QTableView* m_table;
    bool m_running = false;
    views::JobRunner m_jobs;
};

}  // namespace attrib::bench
