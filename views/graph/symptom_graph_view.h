// SPDX-License-Identifier: GPL-3.0-or-later
// The symptom graph panel: zoom (wheel, buttons) and pan (drag), fit, export as SVG or PNG; selection
// in and out by symptom id; the final state or the state as of a debugger step. Laid out when shown: a result
// that arrives while the panel is hidden (the workbench's default) waits, with the step and selection asked for
// meanwhile, until the panel is shown or its scene is asked for; Graphviz layout is the costly part.
#pragma once

#include "views/debugger/trace_step_model.h"
#include "views/graph/symptom_graph_scene.h"

#include <QWidget>

#include <optional>
#include <vector>

class QGraphicsView;
class QLabel;

namespace attrib::views {

class GraphCanvas;

class SymptomGraphView : public QWidget {
    Q_OBJECT

public:
    explicit SymptomGraphView(QWidget* parent = nullptr);
    ~SymptomGraphView() override;

    /// Lays out the final graph of an analysis.
    void setResult(engine::AnalysisSnapshot result);
    /// The symptom set as of a debugger step (same layout, restyled).
    void showStep(const ReplayPtr& replay, int step);
    /// The same with the step's symptom set already computed (TraceReplay::stateAt, e.g. off the GUI thread).
    void showStates(const ReplayPtr& replay, int step, const std::vector<engine::SymptomState>& states);
    void showFinal();

    void selectSymptom(const QString& id);
    QString selectedSymptom();
    /// Writes the whole scene; SVG when the name ends in .svg, else PNG. False on a write error.
    bool exportImage(const QString& path);

    /// A result arrived while hidden and waits to be laid out.
    bool layoutPending() const { return m_pending.has_value(); }
    /// The scene, laid out first if a result is waiting.
    SymptomGraphScene* scene();
    QGraphicsView* view() const;
    double zoom() const;
    void zoomBy(double factor);
    /// Fits the whole graph; it stays fitted when the panel resizes until the user zooms.
    void fitToWindow();
    bool fitsToWindow() const { return m_fitToWindow; }

Q_SIGNALS:
    void symptomSelected(const QString& id);
    void whyStatusRequested(const QString& id);

protected:
    void showEvent(QShowEvent* event) override;

private:
    /// What arrived while hidden: the result to lay out, then the step to show and the symptom to select.
    struct Pending {
        engine::AnalysisSnapshot result;
        ReplayPtr replay;  ///< null: the final state
        int step = -1;
        std::vector<engine::SymptomState> states;
        QString selected;
    };
    void layOut(const engine::AnalysisSnapshot& result);
    void layOutPending();
    void onSelectionChanged();
    void exportDialog();

    SymptomGraphScene* m_scene;
    GraphCanvas* m_canvas;
    QLabel* m_caption;
    bool m_syncing = false;
    bool m_fitToWindow = true;
    std::optional<Pending> m_pending;
};

}  // namespace attrib::views
