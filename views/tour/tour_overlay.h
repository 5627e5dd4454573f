// SPDX-License-Identifier: GPL-3.0-or-later
// The tour's presentation over a window: the window is dimmed except for the target widget, which gets a
// bright frame, and a bubble beside it says what the step is about, with Back / Next / Close (keys: Right or
// Enter for next, Left for back, Esc to end). The overlay lets mouse clicks through; only the bubble takes them.
#pragma once

#include <QPointer>
#include <QWidget>

class QFrame;
class QLabel;
class QPushButton;

namespace attrib::views {

class TourOverlay : public QWidget {
    Q_OBJECT

public:
    /// Covers `window` (it becomes the parent) until `finish()`.
    explicit TourOverlay(QWidget* window);

    void showStep(QWidget* target, const QString& title, const QString& text, int index, int count);
    void finish();

    QWidget* target() const { return m_target; }
    /// The highlighted rectangle in window coordinates (empty when the target is gone).
    QRect highlightRect() const;
    QFrame* bubble() const { return m_bubble; }
    QPushButton* nextButton() const { return m_next; }
    QPushButton* backButton() const { return m_back; }
    QLabel* titleLabel() const { return m_title; }
    QLabel* textLabel() const { return m_text; }

Q_SIGNALS:
    void nextRequested();
    void backRequested();
    void closeRequested();

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void relayout();
    void placeBubble(const QRect& hole);
    /// Step keys (Right, Enter, Left, Esc) pressed while the bubble has the focus; true when handled.
    bool handleKey(QEvent* event);

    QPointer<QWidget> m_target;
    QFrame* m_bubble;
    QLabel* m_step;
    QLabel* m_title;
    QLabel* m_text;
    QPushButton* m_back;
    QPushButton* m_next;
    QPushButton* m_close;
};

}  // namespace attrib::views
