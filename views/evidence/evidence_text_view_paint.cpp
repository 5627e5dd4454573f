// SPDX-License-Identifier: GPL-3.0-or-later
// EvidenceTextView: reading the visible rows, painting them, and input.
#include "engine/safe_text.h"
#include "views/describe.h"
#include "views/evidence/evidence_text_view.h"
#include "views/presentation.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>

namespace attrib::views {

namespace {

constexpr int MaxDisplayChars = 4000;  // longer lines are cut for painting only
constexpr int MarkerWidth = 5;
constexpr int TextPadding = 6;
constexpr int MaxCachedRows = 4000;

QString prepare(QString text)
{
    if (text.contains(QChar(0x1b))) {  // a coloured terminal's log shows as the text the rules read
        std::string buffer;
        const std::string bytes = text.toStdString();
        text = QString::fromStdString(std::string(engine::stripTerminalCodes(bytes, buffer)));
    }
    if (text.size() > MaxDisplayChars) {
        const auto more = text.size() - MaxDisplayChars;
        text.truncate(MaxDisplayChars);
        text += QStringLiteral(" \u2026 [%1 more characters]").arg(more);
    }
    return sanitizeLine(std::move(text));
}

QString shortPath(const QString& path)
{
    const int last = path.lastIndexOf(QLatin1Char('/'));
    const int before = last > 0 ? path.lastIndexOf(QLatin1Char('/'), last - 1) : -1;
    return before >= 0 ? path.mid(before + 1) : path;
}

}  // namespace

void EvidenceTextView::setPlaceholderText(const QString& text)
{
    m_placeholder = text;
    viewport()->update();
}

QString EvidenceTextView::readRow(qint64 row) const
{
    const int file = rowFile(row);
    const qint64 line = rowLine(row);
    if (!m_fileMode && m_analysis) {
        const int o = m_rows[row].observation;
        const auto& obs = m_analysis->r().observations;
        if (o >= 0 && o < static_cast<int>(obs.size())) {
            const auto& src = obs[o].source;
            const QString text = m_source ? m_source->readRecord(file, src.offset, src.length) : QString();
            return text.isEmpty() ? qs(obs[o].text) : text;
        }
    }
    return m_source ? m_source->readLines(file, line, 1).value(0) : QString();
}

void EvidenceTextView::ensureCached(qint64 first, qint64 last)
{
    if (m_text.size() > MaxCachedRows) {
        m_text.clear();
        m_spans.clear();
    }
    if (!m_source || first >= last)
        return;
    if (m_fileMode && m_filter.isEmpty()) {
        qint64 a = first;
        while (a < last && m_text.contains(a))
            ++a;
        qint64 b = last;
        while (b > a && m_text.contains(b - 1))
            --b;
        if (a >= b)
            return;
        const QStringList lines = m_source->readLines(m_file, a, b - a);
        for (qsizetype i = 0; i < lines.size(); ++i)
            m_text.insert(a + i, prepare(lines[i]));
        return;
    }
    for (qint64 row = first; row < last; ++row) {
        if (!m_text.contains(row))
            m_text.insert(row, prepare(readRow(row)));
    }
}

QString EvidenceTextView::rowText(qint64 row)
{
    if (row < 0 || row >= rowCount())
        return {};
    ensureCached(row, row + 1);
    return m_text.value(row);
}

std::vector<int> EvidenceTextView::rowObservations(qint64 row) const
{
    std::vector<int> out;
    const int file = rowFile(row);
    if (!m_analysis || file < 0)
        return out;
    if (!m_fileMode && m_rows[row].observation >= 0)
        out.push_back(m_rows[row].observation);
    for (std::uint32_t o : m_analysis->observationsAt(static_cast<std::uint32_t>(file), rowLine(row) + 1)) {
        if (std::find(out.begin(), out.end(), static_cast<int>(o)) == out.end())
            out.push_back(static_cast<int>(o));
    }
    return out;
}

int EvidenceTextView::rowRole(qint64 row) const
{
    int role = -1;
    for (int o : rowObservations(row))
        role = std::max(role, static_cast<int>(m_analysis->observationRole[o]));
    return role;
}

QList<TextSpan> EvidenceTextView::rowSpans(qint64 row)
{
    if (auto it = m_spans.constFind(row); it != m_spans.constEnd())
        return *it;
    QList<TextSpan> spans;
    const QString text = rowText(row);
    for (int o : rowObservations(row)) {
        const auto& obs = m_analysis->r().observations[o];
        const QString message = sanitizeLine(qs(obs.text));
        qsizetype base = message.isEmpty() ? -1 : text.indexOf(message);
        QList<TextSpan> found = base >= 0 && m_source ? m_source->matchSpans(obs.kind, message) : QList<TextSpan>{};
        if (base < 0) {
            base = 0;
            found = {{0, static_cast<int>(text.size()), false}};
        } else if (found.isEmpty()) {
            found = {{0, static_cast<int>(message.size()), false}};
        }
        for (TextSpan s : found) {
            s.start += static_cast<int>(base);
            s.length = std::min<int>(s.length, static_cast<int>(text.size()) - s.start);
            if (s.length > 0)
                spans.append(s);
        }
    }
    m_spans.insert(row, spans);
    return spans;
}

qint64 EvidenceTextView::rowAt(int y) const
{
    const qint64 row = firstVisibleRow() + y / m_lineHeight;
    return row >= 0 && row < rowCount() ? row : -1;
}

int EvidenceTextView::gutterWidth() const
{
    if (!m_fileMode)
        return std::min(m_listGutter, viewport()->width() * 45 / 100) + MarkerWidth + 14;
    const qint64 lines = std::max<qint64>(m_fileLines, 1);
    return static_cast<int>(QString::number(lines).size()) * m_charWidth + MarkerWidth + 14;
}

QString EvidenceTextView::gutterLabel(qint64 row) const
{
    const qint64 line = rowLine(row) + 1;
    if (m_fileMode || !m_source)
        return QString::number(line);
    return shortPath(m_source->filePath(rowFile(row))) + QLatin1Char(':') + QString::number(line);
}

void EvidenceTextView::paintEvent(QPaintEvent*)
{
    QPainter p(viewport());
    const QRect area = viewport()->rect();
    p.fillRect(area, palette().base());
    const int gutter = gutterWidth();
    p.fillRect(QRect(0, 0, gutter, area.height()), QColor::fromRgb(0xf4f5f7));
    p.setPen(QColor::fromRgb(0xdde0e4));
    p.drawLine(gutter, 0, gutter, area.height());
    if (rowCount() == 0) {
        p.setPen(QColor::fromRgb(0x80868b));
        p.drawText(area.adjusted(gutter + 12, 8, -8, -8), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                   m_placeholder);
        return;
    }
    const qint64 first = firstVisibleRow();
    const qint64 last = std::min(rowCount(), first + visibleRowCount() + 1);
    ensureCached(first, last);
    const int widest = m_maxWidth;
    for (qint64 row = first; row < last; ++row)
        paintRow(p, row, static_cast<int>(row - first) * m_lineHeight, gutter);
    if (m_maxWidth != widest)
        updateScrollBars();
}

void EvidenceTextView::paintRow(QPainter& p, qint64 row, int y, int gutter)
{
    const QRect area = viewport()->rect();
    const int role = rowRole(row);
    const QRect textRect(gutter + 1, y, area.width() - gutter - 1, m_lineHeight);
    const auto [selFirst, selLast] = selectedRows();
    if (row == m_current)
        p.fillRect(textRect, QColor::fromRgb(0xdbe8f7));
    else if (row >= selFirst && row <= selLast)
        p.fillRect(textRect, QColor::fromRgb(0xe8f0fa));
    else if (role >= 0)
        p.fillRect(textRect, QColor::fromRgb(0xfffcf0));
    if (role >= 0)
        p.fillRect(QRect(gutter - MarkerWidth - 3, y + 1, MarkerWidth, m_lineHeight - 2),
                   roleColor(static_cast<EvidenceRole>(role)));
    if (isBookmarked(rowFile(row), rowLine(row))) {
        // A bookmark: a blue tab at the gutter's left edge.
        p.fillRect(QRect(0, y + 1, 4, m_lineHeight - 2), QColor::fromRgb(0x0072b2));
    }
    p.setPen(row == m_current ? QColor::fromRgb(0x1f3b57) : QColor::fromRgb(0x8a8f98));
    p.drawText(QRect(2, y, gutter - MarkerWidth - 8, m_lineHeight), Qt::AlignRight | Qt::AlignVCenter,
               gutterLabel(row));
    const QString text = m_text.value(row);
    const int x = gutter + TextPadding - horizontalScrollBar()->value();
    p.save();
    p.setClipRect(textRect);
    if (role >= 0)
        paintSpans(p, text, rowSpans(row), x, y);
    paintFindMatches(p, text, x, y);
    p.setPen(palette().text().color());
    p.drawText(QPoint(x, y + 1 + fontMetrics().ascent()), text);
    p.restore();
    m_maxWidth = std::max(m_maxWidth, fontMetrics().horizontalAdvance(text));
}

void EvidenceTextView::paintSpans(QPainter& p, const QString& text, const QList<TextSpan>& spans, int x, int y)
{
    // The rule's whole match gets a background; its captured fields an underline, so both stay readable.
    const QFontMetrics fm = fontMetrics();
    for (const TextSpan& s : spans) {
        const int x0 = x + fm.horizontalAdvance(text.left(s.start));
        const int w = fm.horizontalAdvance(text.mid(s.start, s.length));
        if (s.capture)
            p.fillRect(QRect(x0, y + 1 + fm.ascent() + 2, w, 2), QColor::fromRgb(0xe08a00));
        else
            p.fillRect(QRect(x0, y + 1, w, m_lineHeight - 2), QColor::fromRgb(0xfff0a8));
    }
}

void EvidenceTextView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

void EvidenceTextView::mousePressEvent(QMouseEvent* event)
{
    setFocus(Qt::MouseFocusReason);
    const qint64 row = rowAt(event->pos().y());
    if (row < 0)
        return;
    if (event->button() == Qt::RightButton) {
        const auto [first, last] = selectedRows();
        if (row >= first && row <= last)
            return;  // keep the selection for the context menu
    }
    moveTo(row, event->modifiers() & Qt::ShiftModifier);
    int best = -1;
    for (int o : rowObservations(row)) {
        if (best < 0 || m_analysis->observationRole[o] > m_analysis->observationRole[best])
            best = o;
    }
    if (best >= 0)
        Q_EMIT observationActivated(best);
}

void EvidenceTextView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const qint64 row = rowAt(event->pos().y());
    if (row >= 0 && !m_fileMode)
        Q_EMIT openInFileRequested(rowFile(row), rowLine(row));
}

void EvidenceTextView::keyPressEvent(QKeyEvent* event)
{
    const qint64 page = visibleRowCount();
    const qint64 current = std::max<qint64>(m_current, 0);
    const bool extend = event->modifiers() & Qt::ShiftModifier;
    if (event->matches(QKeySequence::Copy)) {
        copySelection(false);
        event->accept();
        return;
    }
    switch (event->key()) {
    case Qt::Key_Up: moveTo(current - 1, extend); break;
    case Qt::Key_Down: moveTo(m_current < 0 ? 0 : current + 1, extend); break;
    case Qt::Key_PageUp: moveTo(current - page, extend); break;
    case Qt::Key_PageDown: moveTo(current + page, extend); break;
    case Qt::Key_Home: moveTo(0, extend); break;
    case Qt::Key_End: moveTo(rowCount() - 1, extend); break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (!m_fileMode && m_current >= 0)
            Q_EMIT openInFileRequested(rowFile(m_current), rowLine(m_current));
        break;
    default: QAbstractScrollArea::keyPressEvent(event); return;
    }
    event->accept();
}

QString EvidenceTextView::rowToolTip(qint64 row) const
{
    QStringList lines;
    for (int o : rowObservations(row)) {
        for (std::uint32_t e : m_analysis->observationEvents[o]) {
            const int s = m_analysis->eventSymptom[e];
            const auto& event = m_analysis->r().events[e];
            if (s >= 0)
                lines << qs(m_analysis->r().symptoms[s].id) + QStringLiteral(" \u2014 ") +
                        statusLine(m_analysis->r().symptoms[s]);
            else
                lines << QStringLiteral("context event ") + qs(event.type) + QStringLiteral(" (rule ") +
                        qs(event.rule) + QLatin1Char(')');
        }
    }
    lines.removeDuplicates();
    return lines.join(QLatin1Char('\n'));
}

bool EvidenceTextView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const qint64 row = rowAt(help->pos().y());
        const QString text = row >= 0 && m_analysis ? rowToolTip(row) : QString();
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), plainToolTip(text), viewport());
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

}  // namespace attrib::views
