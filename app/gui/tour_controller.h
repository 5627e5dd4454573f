// SPDX-License-Identifier: GPL-3.0-or-later
// Runs a guided tour (views/tour/tour.h) over the main window: opens the tour's sample and waits for its
// verdict, then for each step does the step's action, shows and raises the dock holding the target, and asks
// the overlay to highlight it. Next / Back / Esc come from the overlay's bubble.
#pragma once

#include "views/tour/tour.h"

#include <QObject>
#include <QPointer>

namespace attrib::views {
class TourOverlay;
}

namespace attrib::app {

class MainWindow;

class TourController : public QObject {
    Q_OBJECT

public:
    TourController(MainWindow* window, QList<views::Tour> tours, QString samplesDir, QObject* parent = nullptr);

    const QList<views::Tour>& tours() const { return m_tours; }
    /// Starts the tour with `id`; false when there is none (or its sample is missing).
    bool start(const QString& id);
    void next();
    void back();
    void stop();

    bool running() const { return m_tour >= 0; }
    /// Index of the current step (-1 while the tour's sample is still being analysed); `stepShown` follows
    /// once its target is highlighted.
    int currentStep() const { return m_step; }
    const views::Tour* currentTour() const { return m_tour >= 0 ? &m_tours[m_tour] : nullptr; }
    views::TourOverlay* overlay() const { return m_overlay; }
    /// The widget a step names: the first visible one of that objectName in the window, else the first one.
    QWidget* resolveTarget(const QString& name) const;

Q_SIGNALS:
    void stepShown(int step);
    void finished();
    void problem(const QString& text);

private:
    void showStep(int step);
    void present();
    void perform(const views::TourStep& step);
    void selectSymptomNamed(const QString& name);

    MainWindow* m_window;
    QList<views::Tour> m_tours;
    QString m_samplesDir;
    views::TourOverlay* m_overlay;
    int m_tour = -1;
    int m_step = -1;
    quint64 m_shown = 0;  ///< counts step changes, so that a superseded presentation is dropped
    QMetaObject::Connection m_waiting;
};

}  // namespace attrib::app
