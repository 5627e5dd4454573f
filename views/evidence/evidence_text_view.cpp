// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/evidence/evidence_text_view.h"

#include "views/presentation.h"

#include <QFontDatabase>
#include <QScrollBar>

namespace attrib::views {

namespace {

constexpr int TextPadding = 6;

QString shortPath(const QString& path)
{
    const int last = path.lastIndexOf(QLatin1Char('/'));
    const int before = last > 0 ? path.lastIndexOf(QLatin1Char('/'), last - 1) : -1;
    return before >= 0 ? path.mid(before + 1) : path;
}

}  // namespace

EvidenceTextView::EvidenceTextView(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setFont(font);
    const QFontMetrics fm(font);
    m_lineHeight = fm.height() + 3;
    m_charWidth = std::max(1, fm.horizontalAdvance(QLatin1Char('0')));
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setAutoFillBackground(false);
    viewport()->setMouseTracking(true);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
    connect(&m_watcher, &QFutureWatcher<QVector<qint64>>::resultsReadyAt, this, &EvidenceTextView::onFilterResults);
    connect(&m_watcher, &QFutureWatcher<QVector<qint64>>::finished, this, [this] {
        m_filterDone = true;  // after every batch was delivered: finished is queued behind resultsReadyAt
        Q_EMIT rowsChanged();
    });
}

EvidenceTextView::~EvidenceTextView()
{
    m_watcher.cancel();
}

void EvidenceTextView::stopFilter()
{
    m_watcher.cancel();
    m_watcher.setFuture(QFuture<QVector<qint64>>());
}

void EvidenceTextView::setSource(EvidenceSource* source)
{
    if (m_source)
        disconnect(m_source, nullptr, this, nullptr);
    m_source = source;
    if (m_source)
        connect(m_source, &EvidenceSource::lineCountChanged, this, &EvidenceTextView::onLineCountChanged);
    clear();
}

void EvidenceTextView::setAnalysis(AnalysisPtr analysis)
{
    m_analysis = std::move(analysis);
    m_spans.clear();
    viewport()->update();
}

void EvidenceTextView::clear()
{
    stopFilter();
    m_fileMode = true;
    m_file = -1;
    m_fileLines = 0;
    m_allRows.clear();
    m_rows.clear();
    m_filtered.clear();
    m_filter = {};
    m_current = -1;
    m_anchor = -1;
    m_pendingLine = -1;
    resetRows();
}

void EvidenceTextView::resetRows()
{
    m_text.clear();
    m_spans.clear();
    m_maxWidth = 0;
    updateScrollBars();
    viewport()->update();
    Q_EMIT rowsChanged();
}

void EvidenceTextView::showFile(int file, qint64 line)
{
    stopFilter();
    m_fileMode = true;
    m_file = file;
    m_filter = {};
    m_filtered.clear();
    m_allRows.clear();
    m_rows.clear();
    m_fileLines = m_source && file >= 0 ? m_source->lineCount(file).lines : 0;
    m_current = -1;
    m_anchor = -1;
    m_pendingLine = -1;
    verticalScrollBar()->setValue(0);
    resetRows();
    if (line >= 0 && line >= m_fileLines)
        m_pendingLine = line;
    else if (line >= 0)
        setCurrentRow(line);
}

void EvidenceTextView::showRows(QVector<ListRow> rows, int current)
{
    stopFilter();
    m_fileMode = false;
    m_file = -1;
    m_filter = {};
    m_filtered.clear();
    m_allRows = std::move(rows);
    m_rows = m_allRows;
    m_pendingLine = -1;
    m_current = -1;
    m_anchor = -1;
    const QFontMetrics fm(font());
    m_listGutter = 0;
    for (const ListRow& r : std::as_const(m_rows)) {
        const QString label = m_source ? shortPath(m_source->filePath(r.file)) : QString();
        m_listGutter = std::max(m_listGutter, fm.horizontalAdvance(label + QStringLiteral(":%1").arg(r.line + 1)));
    }
    verticalScrollBar()->setValue(0);
    resetRows();
    if (!m_rows.isEmpty())
        setCurrentRow(std::clamp<qint64>(current, 0, m_rows.size() - 1));
}

qint64 EvidenceTextView::rowCount() const
{
    if (!m_fileMode)
        return m_rows.size();
    return m_filter.isEmpty() ? m_fileLines : m_filtered.size();
}

qint64 EvidenceTextView::rowLine(qint64 row) const
{
    if (row < 0 || row >= rowCount())
        return -1;
    if (!m_fileMode)
        return m_rows[row].line;
    return m_filter.isEmpty() ? row : m_filtered[row];
}

int EvidenceTextView::rowFile(qint64 row) const
{
    if (row < 0 || row >= rowCount())
        return -1;
    return m_fileMode ? m_file : m_rows[row].file;
}

qint64 EvidenceTextView::firstVisibleRow() const
{
    return verticalScrollBar()->value();
}

int EvidenceTextView::visibleRowCount() const
{
    return std::max(1, viewport()->height() / m_lineHeight);
}

void EvidenceTextView::updateScrollBars()
{
    const qint64 rows = rowCount();
    const int page = visibleRowCount();
    verticalScrollBar()->setPageStep(page);
    verticalScrollBar()->setSingleStep(1);
    verticalScrollBar()->setRange(0, static_cast<int>(std::min<qint64>(INT_MAX, std::max<qint64>(0, rows - page))));
    const int textWidth = viewport()->width() - gutterWidth() - TextPadding;
    horizontalScrollBar()->setPageStep(std::max(1, textWidth));
    horizontalScrollBar()->setSingleStep(m_charWidth * 4);
    horizontalScrollBar()->setRange(0, std::max(0, m_maxWidth - textWidth + m_charWidth * 2));
}

void EvidenceTextView::onLineCountChanged(int file)
{
    if (!m_fileMode || file != m_file || !m_source)
        return;
    const qint64 before = m_fileLines;
    m_fileLines = m_source->lineCount(file).lines;
    if (m_fileLines == before)
        return;
    if (m_filter.isEmpty())
        updateScrollBars();
    if (m_pendingLine >= 0 && m_pendingLine < m_fileLines) {
        const qint64 line = m_pendingLine;
        m_pendingLine = -1;
        setCurrentRow(line);
    }
    viewport()->update();
    Q_EMIT rowsChanged();
}

void EvidenceTextView::setCurrentRow(qint64 row)
{
    if (rowCount() == 0)
        return;
    row = std::clamp<qint64>(row, 0, rowCount() - 1);
    const qint64 first = firstVisibleRow();
    const int visible = visibleRowCount();
    if (row < first || row >= first + visible) {
        // Jumps land in the middle so that the lines around it (a traceback's innermost frame above an
        // exception, what followed below) stay visible.
        verticalScrollBar()->setValue(static_cast<int>(std::max<qint64>(0, row - visible / 2)));
    }
    m_anchor = row;
    if (row != m_current) {
        m_current = row;
        Q_EMIT currentRowChanged(row);
    }
    viewport()->update();
}

bool EvidenceTextView::goToLine(qint64 line)
{
    const qint64 target = line - 1;
    if (m_fileMode && m_filter.isEmpty()) {
        if (target < 0 || m_file < 0)
            return false;
        if (target >= m_fileLines) {
            const bool complete = m_source && m_source->lineCount(m_file).complete;
            if (!complete)
                m_pendingLine = target;
            return !complete;
        }
        setCurrentRow(target);
        return true;
    }
    for (qint64 row = 0; row < rowCount(); ++row) {
        if (rowLine(row) >= target) {
            setCurrentRow(row);
            return true;
        }
    }
    return false;
}

void EvidenceTextView::setFilter(const QString& text)
{
    setFilterQuery(LineQuery{text, false, Qt::CaseInsensitive, false});
}

void EvidenceTextView::setFilterQuery(const LineQuery& query)
{
    if (query == m_filter)
        return;
    const qint64 keepLine = rowLine(m_current);
    const int keepFile = rowFile(m_current);
    stopFilter();
    m_filter = query;
    m_filtered.clear();
    m_current = -1;
    m_anchor = -1;
    if (!m_fileMode) {
        applyListFilter();
    } else if (!m_filter.isEmpty() && m_source && m_file >= 0) {
        m_filterDone = false;
        m_watcher.setFuture(m_source->findLines(m_file, m_filter));
    }
    verticalScrollBar()->setValue(0);
    resetRows();
    if (keepLine >= 0 && (m_fileMode ? m_filter.isEmpty() : true)) {
        for (qint64 row = 0; row < rowCount(); ++row) {
            if (rowLine(row) == keepLine && rowFile(row) == keepFile) {
                setCurrentRow(row);
                break;
            }
        }
    }
}

void EvidenceTextView::applyListFilter()
{
    m_rows.clear();
    const LineMatcher matcher(m_filter);
    const auto& obs = m_analysis ? m_analysis->r().observations : std::vector<engine::Observation>{};
    for (const ListRow& r : std::as_const(m_allRows)) {
        QString text;
        if (r.observation >= 0 && r.observation < static_cast<int>(obs.size()))
            text = qs(obs[r.observation].text);
        else if (m_source)
            text = m_source->readLines(r.file, r.line, 1).value(0);
        if (matcher.accepts(text))
            m_rows.append(r);
    }
}

void EvidenceTextView::onFilterResults(int begin, int end)
{
    const QFuture<QVector<qint64>> future = m_watcher.future();
    end = std::min(end, future.resultCount());
    for (int i = begin; i < end; ++i)
        m_filtered.append(future.resultAt(i));
    updateScrollBars();
    viewport()->update();
    Q_EMIT rowsChanged();
}

}  // namespace attrib::views
