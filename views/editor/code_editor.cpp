// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/editor/code_editor.h"

#include <QFontDatabase>
#include <QPaintEvent>
#include <QPainter>
#include <QTextBlock>

namespace attrib::views {

/// The gutter widget; painting is delegated to the editor, which knows the block geometry.
class LineNumberGutter : public QWidget {
public:
    explicit LineNumberGutter(CodeEditor* editor)
        : QWidget(editor)
        , m_editor(editor)
    {
    }
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* event) override { m_editor->paintGutter(event); }

private:
    CodeEditor* m_editor;
};

CodeEditor::CodeEditor(QWidget* parent)
    : QPlainTextEdit(parent)
    , m_gutter(new LineNumberGutter(this))
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2);
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, &CodeEditor::updateGutter);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &CodeEditor::updateSelections);
    setViewportMargins(gutterWidth(), 0, 0, 0);
    updateSelections();
}

int CodeEditor::gutterWidth() const
{
    int digits = 1;
    for (int max = std::max(1, blockCount()); max >= 10; max /= 10)
        ++digits;
    return 14 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(3, digits);
}

void CodeEditor::setProblemLines(const QSet<int>& lines)
{
    m_problems = lines;
    updateSelections();
    m_gutter->update();
}

void CodeEditor::goToLine(int line)
{
    const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
    QTextCursor cursor(block);
    setTextCursor(cursor);
    centerCursor();
    setFocus();
}

void CodeEditor::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void CodeEditor::updateGutter(const QRect& rect, int dy)
{
    if (dy)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
}

void CodeEditor::updateSelections()
{
    QList<QTextEdit::ExtraSelection> selections;
    for (int line : std::as_const(m_problems)) {
        QTextEdit::ExtraSelection problem;
        problem.format.setBackground(QColor(0xff, 0xeb, 0xee));
        problem.format.setProperty(QTextFormat::FullWidthSelection, true);
        problem.cursor = QTextCursor(document()->findBlockByNumber(line - 1));
        selections << problem;
    }
    QTextEdit::ExtraSelection current;
    current.format.setBackground(QColor(0xf1, 0xf8, 0xff));
    current.format.setProperty(QTextFormat::FullWidthSelection, true);
    current.cursor = textCursor();
    current.cursor.clearSelection();
    selections << current;
    setExtraSelections(selections);
}

void CodeEditor::paintGutter(QPaintEvent* event)
{
    QPainter painter(m_gutter);
    painter.fillRect(event->rect(), QColor(0xf5, 0xf5, 0xf5));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + qRound(blockBoundingRect(block).height());
    const int current = textCursor().blockNumber();
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            const int line = block.blockNumber() + 1;
            if (m_problems.contains(line)) {
                painter.setBrush(QColor(0xc6, 0x28, 0x28));
                painter.setPen(Qt::NoPen);
                painter.drawEllipse(QPointF(6, top + fontMetrics().height() / 2.0), 3.5, 3.5);
            }
            painter.setPen(block.blockNumber() == current ? QColor(0x21, 0x21, 0x21) : QColor(0x9e, 0x9e, 0x9e));
            painter.drawText(0, top, m_gutter->width() - 4, fontMetrics().height(), Qt::AlignRight,
                             QString::number(line));
        }
        block = block.next();
        top = bottom;
        bottom = top + qRound(blockBoundingRect(block).height());
    }
}

}  // namespace attrib::views
