// SPDX-License-Identifier: GPL-3.0-or-later
// The verdict at a glance: terminal state and sub-domain badges, root cause (symptom, place, time, the
// decisive evidence line), recommended action, affected nodes, ambiguity candidates, and coverage
// warnings that cannot be overlooked. Clicking the root cause or its evidence line drives the selection.
#pragma once

#include "views/selection_model.h"

#include <QWidget>

class QPushButton;
class QScrollArea;
class QVBoxLayout;

namespace attrib::views {

class VerdictPanel : public QWidget {
    Q_OBJECT

public:
    explicit VerdictPanel(SelectionModel* selection, QWidget* parent = nullptr);

    /// Replaces the content with a message (no bundle yet, analysing, failed).
    void showMessage(const QString& title, const QString& text, bool error = false);
    /// All text shown, one item per line (for tests and accessibility checks).
    QString contentText() const;
    QPushButton* rootCauseButton() const { return m_rootCauseButton; }
    QPushButton* evidenceButton() const { return m_evidenceButton; }
    QScrollArea* scrollArea() const { return m_scroll; }

Q_SIGNALS:
    void copyMarkdownRequested();
    /// "Show the rule problems" under the catalog warning (the window raises the Rule problems panel).
    void catalogProblemsRequested();
    /// A lead's location was clicked: show that bundle file at a 0-based line.
    void fileLineRequested(int file, qint64 line);

private:
    void onAnalysisChanged(const AnalysisPtr& analysis);
    void rebuild();
    void addBadges(QVBoxLayout* layout);
    void addRootCause(QVBoxLayout* layout);
    void addDecisiveLine(QVBoxLayout* layout);
    void addAction(QVBoxLayout* layout);
    void addAffectedNodes(QVBoxLayout* layout);
    void addCandidates(QVBoxLayout* layout);
    void addCatalogProblems(QVBoxLayout* layout);
    void showCandidateComparison();
    void addLeads(QVBoxLayout* layout);
    void addCoverage(QVBoxLayout* layout);
    void addFooter(QVBoxLayout* layout);
    QWidget* replaceContent();

    SelectionModel* m_selection;
    AnalysisPtr m_analysis;
    QScrollArea* m_scroll;
    QPushButton* m_rootCauseButton = nullptr;
    QPushButton* m_evidenceButton = nullptr;
};

}  // namespace attrib::views
