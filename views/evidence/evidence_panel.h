// SPDX-License-Identifier: GPL-3.0-or-later
// The evidence pane: what is shown (a file, or a symptom's evidence with its status, rule and reason),
// file picker, text filter, go-to-line, and the text view. Follows and drives the shared selection.
#pragma once

#include "views/evidence/evidence_text_view.h"
#include "views/selection_model.h"

#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace attrib::views {

class BundleFileModel;

class EvidencePanel : public QWidget {
    Q_OBJECT

public:
    explicit EvidencePanel(SelectionModel* selection, QWidget* parent = nullptr);

    /// The bundle's lines for the current analysis (owned elsewhere; may change per analysis).
    void setSource(EvidenceSource* source);
    /// Shows the bundle's files before the analysis has finished.
    void setBundleFiles(AnalysisPtr partial);
    EvidenceTextView* textView() const { return m_view; }
    QString titleText() const;
    QString detailText() const;

    /// Shows a file; `line` is 0-based (-1: top).
    void showFile(int file, qint64 line = -1);
    /// Shows a symptom's evidence lines; `observation` becomes the current row.
    void showSymptom(int symptom, int observation = -1);

private:
    void onAnalysisChanged(const AnalysisPtr& analysis);
    void onSelectionChanged(const Selection& selection);
    void onObservationActivated(int observation);
    void describeFile(int file);
    void showKeptLines(int file, qint64 line);
    void describeSelection(const Selection& selection);
    void setHeader(const QString& title, const QString& detail, int role);
    void updateStatus();
    void selectFileInCombo(int file);
    QWidget* buildLegend();

    SelectionModel* m_selection;
    AnalysisPtr m_analysis;
    AnalysisPtr m_files;
    QPointer<EvidenceSource> m_source;
    BundleFileModel* m_fileModel;
    QComboBox* m_fileCombo;
    QLineEdit* m_filter;
    QLineEdit* m_goto;
    QToolButton* m_openInFile;
    QLabel* m_chip;
    QLabel* m_title;
    QLabel* m_detail;
    QLabel* m_status;
    EvidenceTextView* m_view;
    QTimer m_filterDelay;
    bool m_internal = false;
};

}  // namespace attrib::views
