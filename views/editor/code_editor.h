// SPDX-License-Identifier: GPL-3.0-or-later
// A plain-text editor with a line-number gutter, the current line highlighted and problem lines marked.
#pragma once

#include <QPlainTextEdit>
#include <QSet>

namespace attrib::views {

class CodeEditor : public QPlainTextEdit {
    Q_OBJECT

public:
    explicit CodeEditor(QWidget* parent = nullptr);

    /// Lines (1-based) drawn with a red mark in the gutter and a tinted background.
    void setProblemLines(const QSet<int>& lines);
    const QSet<int>& problemLines() const { return m_problems; }
    /// Moves the cursor to a 1-based line and centres it.
    void goToLine(int line);
    int gutterWidth() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    friend class LineNumberGutter;
    void paintGutter(QPaintEvent* event);
    void updateGutter(const QRect& rect, int dy);
    void updateSelections();

    QWidget* m_gutter;
    QSet<int> m_problems;
};

}  // namespace attrib::views
