// SPDX-License-Identifier: GPL-3.0-or-later
// The evidence pane: what is shown (a file, or a symptom's evidence with its status, rule and reason),
// file picker, text filter, go-to-line, and the text view. Follows and drives the shared selection.
#pragma once

#include "views/evidence/evidence_text_view.h"
#include "views/selection_model.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QAction;
class QMenu;
class QToolButton;

namespace attrib::views {

class BundleFileModel;
class FindBar;

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
    /// Shows the evidence lines of every file of `node` (empty: the whole job) in time order.
    void showMerged(const std::string& node, bool wholeJob);
    /// Jumps to the time `text` ("21:34:20", "2026-04-22 21:34:20.5") in the rows shown; false if unparsable
    /// or no row has a time.
    bool goToTime(const QString& text);
    /// Opens the culprit's own log (root-cause rank or node, application log preferred) at the root-cause time.
    bool showCulpritLog();
    FindBar* findBar() const { return m_find; }
    /// The pane's keyboard actions (find, bookmarks, copy, merged view, culprit), for menus and the help page.
    QList<QAction*> keyboardActions() const { return m_actions; }
    /// Bookmarks as "file:line  text" rows, in file and line order.
    QStringList bookmarkList();

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
    void buildActions();
    /// Why a file was not read ("binary, not read", the coverage reason), empty when it was read.
    QString skippedReason(int file) const;
    void buildContextMenu(qint64 row, const QPoint& globalPos);
    void rebuildBookmarkMenu();
    void rebuildMergedMenu();
    void updateFindStatus();
    QAction* addKeyAction(const QString& text, const QString& keys, Qt::ShortcutContext context);
    /// Rows of a time-ordered list of observations (merged views).
    QVector<EvidenceTextView::ListRow> timeOrderedRows(const std::string& node, bool wholeJob, int rank) const;

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
    FindBar* m_find;
    QToolButton* m_bookmarksButton;
    QToolButton* m_mergedButton;
    QToolButton* m_culpritButton;
    QMenu* m_bookmarkMenu;
    QMenu* m_mergedMenu;
    QList<QAction*> m_actions;
    LineQuery m_filterFlags;
    QFutureWatcher<QVector<qint64>> m_countWatcher;  ///< counts find matches in a whole file in the background
    qint64 m_findCount = 0;
    QString m_placeholderText = QStringLiteral(
        "Select a symptom, an event on the timeline or a file to read its evidence.");  ///< regex, case and in/out of
                                                                                        ///< the filter field (set from
                                                                                        ///< the find bar)
};

}  // namespace attrib::views
