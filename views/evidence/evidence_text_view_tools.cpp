// SPDX-License-Identifier: GPL-3.0-or-later
// EvidenceTextView as a log viewer: find with highlight and next/previous, line selection and copy,
// bookmarks, the context menu signal.
#include "views/evidence/evidence_text_view.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QPainter>

namespace attrib::views {

namespace {

constexpr qint64 FindChunk = 2048;  // rows read per step while searching

}  // namespace

void EvidenceTextView::setFindQuery(const LineQuery& query)
{
    m_findQuery = query;
    if (query.isEmpty())
        m_find.reset();
    else
        m_find.emplace(query);
    viewport()->update();
}

QList<QPair<int, int>> EvidenceTextView::findMatches(qint64 row)
{
    return m_find ? m_find->matches(rowText(row)) : QList<QPair<int, int>>{};
}

bool EvidenceTextView::findNext(bool backward)
{
    const qint64 rows = rowCount();
    if (!m_find || !m_find->isValid() || rows == 0)
        return false;
    const qint64 start = m_current < 0 ? (backward ? rows : -1) : m_current;
    // Reads rows in chunks (file mode: one readLines call per chunk) and wraps around once.
    for (qint64 done = 0; done < rows; done += FindChunk) {
        const qint64 n = std::min(FindChunk, rows - done);
        for (qint64 i = 1; i <= n; ++i) {
            const qint64 step = done + i;
            const qint64 row = ((backward ? start - step : start + step) % rows + rows) % rows;
            if (m_text.size() > 4 * FindChunk)
                m_text.clear();
            if (!m_text.contains(row)) {
                const qint64 first = backward ? std::max<qint64>(0, row - FindChunk + 1) : row;
                ensureCached(first, std::min(rows, first + FindChunk));
            }
            if (m_find->hits(m_text.value(row))) {
                setCurrentRow(row);
                return true;
            }
        }
    }
    return false;
}

void EvidenceTextView::paintFindMatches(QPainter& p, const QString& text, int x, int y)
{
    if (!m_find)
        return;
    const QFontMetrics fm = fontMetrics();
    for (const auto& [start, length] : m_find->matches(text)) {
        const int x0 = x + fm.horizontalAdvance(text.left(start));
        const int w = std::max(2, fm.horizontalAdvance(text.mid(start, length)));
        p.fillRect(QRect(x0, y + 1, w, m_lineHeight - 2), QColor::fromRgb(0xffb74d));
    }
}

std::pair<qint64, qint64> EvidenceTextView::selectedRows() const
{
    if (m_current < 0)
        return {-1, -1};
    const qint64 anchor = m_anchor < 0 ? m_current : std::min(m_anchor, rowCount() - 1);
    return {std::min(anchor, m_current), std::max(anchor, m_current)};
}

QString EvidenceTextView::selectedText(bool withLocation)
{
    const auto [first, last] = selectedRows();
    QStringList lines;
    for (qint64 row = first; row >= 0 && row <= last; ++row) {
        const QString where =
            m_source ? m_source->filePath(rowFile(row)) + QStringLiteral(":%1: ").arg(rowLine(row) + 1) : QString();
        lines << (withLocation ? where : QString()) + readRow(row);
    }
    return lines.join(QLatin1Char('\n'));
}

QString EvidenceTextView::selectedMarkdown()
{
    const auto [first, last] = selectedRows();
    if (first < 0)
        return {};
    QString out;
    if (m_source) {
        const QString file = m_source->filePath(rowFile(first));
        const bool oneFile = rowFile(last) == rowFile(first);
        out = QStringLiteral("`%1:%2%3`\n\n")
                  .arg(file)
                  .arg(rowLine(first) + 1)
                  .arg(oneFile && last > first ? QStringLiteral("-%1").arg(rowLine(last) + 1) : QString());
    }
    for (qint64 row = first; row <= last; ++row) {
        // Log text is untrusted: backticks and Markdown markers stay literal inside a code span per line.
        QString line = readRow(row);
        line.replace(QLatin1Char('`'), QStringLiteral("\u02cb"));
        out += QStringLiteral("> `") + line + QStringLiteral("`\n");
    }
    return out;
}

void EvidenceTextView::copySelection(bool withLocation)
{
    const QString text = selectedText(withLocation);
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
}

void EvidenceTextView::toggleBookmark()
{
    if (m_current < 0)
        return;
    const std::pair<int, qint64> key{rowFile(m_current), rowLine(m_current)};
    if (!m_bookmarks.erase(key))
        m_bookmarks.insert(key);
    viewport()->update();
    Q_EMIT bookmarksChanged();
}

bool EvidenceTextView::nextBookmark(bool backward)
{
    const qint64 rows = rowCount();
    if (m_bookmarks.empty() || rows == 0)
        return false;
    if (m_fileMode && m_filter.isEmpty()) {
        // Rows are lines: jump straight to the neighbouring bookmark of this file, wrapping around.
        std::vector<qint64> lines;
        for (auto it = m_bookmarks.lower_bound({m_file, 0}); it != m_bookmarks.end() && it->first == m_file; ++it)
            lines.push_back(it->second);
        if (lines.empty())
            return false;
        qint64 target = backward ? lines.back() : lines.front();
        for (qint64 line : lines) {
            if (!backward && line > m_current) {
                target = line;
                break;
            }
            if (backward && line < m_current)
                target = line;
        }
        setCurrentRow(target);
        return true;
    }
    const qint64 start = m_current < 0 ? (backward ? rows : -1) : m_current;
    for (qint64 step = 1; step <= rows; ++step) {
        const qint64 row = ((backward ? start - step : start + step) % rows + rows) % rows;
        if (isBookmarked(rowFile(row), rowLine(row))) {
            setCurrentRow(row);
            return true;
        }
    }
    return false;
}

void EvidenceTextView::moveTo(qint64 row, bool extend)
{
    const qint64 anchor = m_anchor >= 0 ? m_anchor : m_current;
    setCurrentRow(row);
    if (extend && anchor >= 0) {
        m_anchor = anchor;
        viewport()->update();
    }
}

void EvidenceTextView::contextMenuEvent(QContextMenuEvent* event)
{
    // From the mouse the position is in viewport coordinates; from the Menu key the menu opens at the current row.
    const bool keyboard = event->reason() == QContextMenuEvent::Keyboard;
    const qint64 row = keyboard ? m_current : rowAt(event->pos().y());
    if (row < 0)
        return;
    const auto [first, last] = selectedRows();
    if (row < first || row > last)
        setCurrentRow(row);
    const QPoint at = keyboard
        ? viewport()->mapToGlobal(QPoint(gutterWidth(), static_cast<int>(row - firstVisibleRow() + 1) * m_lineHeight))
        : event->globalPos();
    Q_EMIT contextMenuRequested(row, at);
}

}  // namespace attrib::views
