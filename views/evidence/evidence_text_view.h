// SPDX-License-Identifier: GPL-3.0-or-later
// A log pane that paints only the visible rows (klogg style) and reads them by offset through an
// EvidenceSource, so a 2 GB file opens at once. Shows a whole file (optionally filtered) or a list of
// evidence lines; numbers lines, marks evidence roles in the gutter, highlights rule-matched spans.
// Log text is painted as plain text, always.
#pragma once

#include "views/analysis_data.h"
#include "views/evidence/evidence_source.h"

#include <QAbstractScrollArea>
#include <QFutureWatcher>
#include <QHash>
#include <QPointer>

#include <optional>
#include <set>

namespace attrib::views {

class EvidenceTextView : public QAbstractScrollArea {
    Q_OBJECT

public:
    /// One row of list mode: a line of a bundle file, possibly an observation.
    struct ListRow {
        int file = 0;
        qint64 line = 0;       ///< 0-based
        int observation = -1;  ///< index into AnalysisResult::observations
    };

    explicit EvidenceTextView(QWidget* parent = nullptr);
    ~EvidenceTextView() override;

    void setSource(EvidenceSource* source);
    void setAnalysis(AnalysisPtr analysis);

    /// Shows a whole file; `line` (0-based) becomes the current row.
    void showFile(int file, qint64 line = -1);
    /// Shows a list of lines (a symptom's evidence); `current` is a row index.
    void showRows(QVector<ListRow> rows, int current = 0);
    void clear();
    /// Text painted when there are no rows.
    void setPlaceholderText(const QString& text);
    /// Keeps only rows containing `text` (case-insensitive). File mode scans the file in the background.
    void setFilter(const QString& text);
    /// Keeps the rows `query` accepts (regex, case, filter out). File mode scans the file in the background.
    void setFilterQuery(const LineQuery& query);
    const LineQuery& filterQuery() const { return m_filter; }

    /// Find: highlights every match of `query` in the visible rows (empty clears).
    void setFindQuery(const LineQuery& query);
    const LineQuery& findQuery() const { return m_findQuery; }
    /// Moves the current row to the next (or previous) row with a match, wrapping around. False when none.
    bool findNext(bool backward = false);
    /// Highlighted matches on a row (start, length), for tests.
    QList<QPair<int, int>> findMatches(qint64 row);

    /// Selected rows: from the anchor (Shift+click, Shift+arrows) to the current row.
    std::pair<qint64, qint64> selectedRows() const;
    /// The selected lines as text; `withLocation` prefixes each with `file:line: `.
    QString selectedText(bool withLocation = false);
    /// The selected lines as a Markdown quote with their location.
    QString selectedMarkdown();
    /// Copies selectedText to the clipboard (Ctrl+C; Ctrl+Shift+L adds file:line).
    void copySelection(bool withLocation = false);

    /// Bookmarks are lines of files, kept across files, symptoms and filters.
    void toggleBookmark();
    bool isBookmarked(int file, qint64 line) const { return m_bookmarks.count({file, line}) > 0; }
    const std::set<std::pair<int, qint64>>& bookmarks() const { return m_bookmarks; }
    /// Moves to the next (previous) bookmarked row shown; false when none is shown.
    bool nextBookmark(bool backward = false);
    /// Makes the row showing 1-based line `line` current (the nearest one when filtered). False if none.
    bool goToLine(qint64 line);
    void setCurrentRow(qint64 row);

    bool isFileMode() const { return m_fileMode; }
    int file() const { return m_file; }
    qint64 rowCount() const;
    qint64 currentRow() const { return m_current; }
    qint64 firstVisibleRow() const;
    int visibleRowCount() const;
    int lineHeight() const { return m_lineHeight; }
    bool filterRunning() const { return m_fileMode && !m_filter.isEmpty() && !m_filterDone; }
    QString filterText() const { return m_filter.text; }
    /// Row accessors, as painted (for tests and the panel).
    QString rowText(qint64 row);
    qint64 rowLine(qint64 row) const;
    int rowFile(qint64 row) const;
    QList<TextSpan> rowSpans(qint64 row);
    /// Strongest EvidenceRole of the observations on a row, -1 when the row holds none.
    int rowRole(qint64 row) const;
    /// Observations on a row (indices into AnalysisResult::observations).
    std::vector<int> rowObservations(qint64 row) const;

Q_SIGNALS:
    void currentRowChanged(qint64 row);
    void observationActivated(int observation);
    void openInFileRequested(int file, qint64 line);
    void rowsChanged();
    void bookmarksChanged();
    /// Right-click on a row (the row is current): the panel builds the menu.
    void contextMenuRequested(qint64 row, const QPoint& globalPos);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    void resetRows();
    void stopFilter();
    void updateScrollBars();
    void ensureCached(qint64 first, qint64 last);
    void onLineCountChanged(int file);
    void onFilterResults(int begin, int end);
    void applyListFilter();
    qint64 rowAt(int y) const;
    int gutterWidth() const;
    QString gutterLabel(qint64 row) const;
    void paintRow(QPainter& p, qint64 row, int y, int gutter);
    void paintSpans(QPainter& p, const QString& text, const QList<TextSpan>& spans, int x, int y);
    void paintFindMatches(QPainter& p, const QString& text, int x, int y);
    /// Moves the current row; `extend` keeps the selection anchor, otherwise the anchor follows.
    void moveTo(qint64 row, bool extend);
    QString readRow(qint64 row) const;
    QString rowToolTip(qint64 row) const;

    QPointer<EvidenceSource> m_source;
    AnalysisPtr m_analysis;
    bool m_fileMode = true;
    int m_file = -1;
    qint64 m_fileLines = 0;
    QVector<ListRow> m_allRows;  ///< list mode, unfiltered
    QVector<ListRow> m_rows;     ///< list mode, after the filter
    QVector<qint64> m_filtered;  ///< file mode with a filter: matching lines
    LineQuery m_filter;
    LineQuery m_findQuery;
    std::optional<LineMatcher> m_find;
    std::set<std::pair<int, qint64>> m_bookmarks;  ///< (file, 0-based line)
    qint64 m_anchor = -1;
    bool m_filterDone = true;  ///< file mode: every batch of the background filter has arrived
    QFutureWatcher<QVector<qint64>> m_watcher;
    qint64 m_current = -1;
    qint64 m_pendingLine = -1;  ///< line to make current once the index reaches it
    int m_listGutter = 0;
    QString m_placeholder;
    QHash<qint64, QString> m_text;  ///< row -> text, visible window only
    QHash<qint64, QList<TextSpan>> m_spans;
    int m_maxWidth = 0;
    int m_lineHeight = 16;
    int m_charWidth = 8;
};

}  // namespace attrib::views
