// SPDX-License-Identifier: GPL-3.0-or-later
// The symptom graph panel: zoom (wheel, buttons) and pan (drag), fit, export as SVG or PNG; selection
// in and out by symptom id; the final state or the state as of a debugger step.
#pragma once

#include "views/debugger/trace_step_model.h"
#include "views/graph/symptom_graph_scene.h"

#include <QWidget>

class QGraphicsView;
class QLabel;

namespace attrib::views {

class GraphCanvas;

class SymptomGraphView : public QWidget {
    Q_OBJECT

public:
    explicit SymptomGraphView(QWidget* parent = nullptr);

    /// Lays out the final graph of an analysis.
    void setResult(engine::AnalysisSnapshot result);
    /// The symptom set as of a debugger step (same layout, restyled).
    void showStep(const ReplayPtr& replay, int step);
    /// The same with the step's symptom set already computed (TraceReplay::stateAt, e.g. off the GUI thread).
    void showStates(const ReplayPtr& replay, int step, const std::vector<engine::SymptomState>& states);
    void showFinal();

    void selectSymptom(const QString& id);
    QString selectedSymptom() const;
    /// Writes the whole scene; SVG when the name ends in .svg, else PNG. False on a write error.
    bool exportImage(const QString& path) const;

    SymptomGraphScene* scene() const { return m_scene; }
    QGraphicsView* view() const;
    double zoom() const;
    void zoomBy(double factor);
    /// Fits the whole graph; it stays fitted when the panel resizes until the user zooms.
    void fitToWindow();
    bool fitsToWindow() const { return m_fitToWindow; }

Q_SIGNALS:
    void symptomSelected(const QString& id);
    void whyStatusRequested(const QString& id);

private:
    void onSelectionChanged();
    void exportDialog();

    SymptomGraphScene* m_scene;
    GraphCanvas* m_canvas;
    QLabel* m_caption;
    bool m_syncing = false;
    bool m_fitToWindow = true;
};

}  // namespace attrib::views
