// SPDX-License-Identifier: GPL-3.0-or-later
// The per-node timeline: a QCustomPlot with one lane per node (GPU sub-lanes when expanded), time on x.
// Wheel zooms time, drag pans, Ctrl+drag zooms to a range, clicking a node label expands its GPUs.
#pragma once

#include "views/selection_model.h"
#include "views/timeline/event_lanes_plottable.h"
#include "views/timeline/qcp.h"
#include "views/timeline/time_ticker.h"

namespace attrib::views {

class TimelinePlot : public QCustomPlot {
    Q_OBJECT

public:
    explicit TimelinePlot(QWidget* parent = nullptr);
    ~TimelinePlot() override;

    /// The legend below the plot. Auto shows it when the plot is tall enough to keep room for its lanes
    /// (below AutoLegendHeight pixels the lanes need the space: the toolbar's Legend action brings it back).
    enum class LegendMode { Auto, Shown, Hidden };
    static constexpr int AutoLegendHeight = 380;
    void setLegendMode(LegendMode mode);
    LegendMode legendMode() const { return m_legendMode; }
    bool legendShown() const { return m_legend->layout() != nullptr; }

    /// A new analysis: the plot empties until its timeline data arrives.
    void setAnalysis(AnalysisPtr analysis);
    void setTimelineData(TimelineDataPtr timeline);
    const TimelineDataPtr& timelineData() const { return m_data; }
    const AnalysisPtr& analysis() const { return m_analysis; }
    const LaneLayout& laneLayout() const { return m_layout; }
    EventLanesPlottable* lanes() const { return m_lanes; }

    /// Shows the whole time range and the first lanes ("0").
    void resetView();
    /// Zooms to the failure window with margins ("F"); the view the timeline opens on.
    void fitFailure();
    /// Zooms to the selected symptom's span or around the selected event ("Z"); false with nothing selected.
    bool zoomToSelection();
    /// Moves the time range by `fraction` of its width (positive: later).
    void panTime(double fraction);
    /// Zooms time by `factor` (> 1 zooms in) around the centre.
    void zoomTime(double factor);
    void setRelativeTime(bool relative);
    bool relativeTime() const { return m_ticker->mode() == TimeTicker::Mode::Relative; }
    void setAllExpanded(bool expanded);
    void toggleNode(int node);
    void showSelection(const Selection& selection);

    double firstLane() const { return yAxis->range().lower; }
    double visibleLanes() const;
    void setFirstLane(double top);
    void ensureLaneVisible(int lane);
    void ensureTimeVisible(double x);

    int laneAtPixel(double y) const;
    int eventAt(const QPoint& pos) const;
    int symptomAt(const QPoint& pos) const;
    /// Plain text for a tooltip at `pos` (event, aggregated column or symptom bar); empty if nothing.
    QString toolTipAt(const QPoint& pos) const;
    /// Pixel position of an event's marker, or (-1, -1) when it is not on screen.
    QPoint eventPosition(int event) const;

Q_SIGNALS:
    void eventClicked(int event);
    void symptomClicked(int symptom);
    void lanesChanged();
    void legendShownChanged(bool shown);

protected:
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void processRectZoom(QRect rect, QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void setupAxes();
    void fitLanes();
    void rebuildLanes();
    void rebuildLegend();
    /// Legend items per row for the current width; true when it changed.
    bool updateLegendWrap();
    /// Puts the legend in or takes it out of the layout as the mode and height want; true when it moved.
    bool updateLegendPlacement();
    void updateTimeAxisLabel();
    /// The ticker's mode when not relative to the root cause: UTC, or time since boot when no event has a wall time.
    TimeTicker::Mode absoluteMode() const;
    /// `x` (seconds from the origin) as a time in words: "21:34:20.118 UTC" or "+12.345 s since boot".
    QString timeText(double x, bool withDate = true) const;
    void clampTimeRange(const QCPRange& range);
    void clampLaneRange(const QCPRange& range);
    QString columnToolTip(int lane, const QPoint& pos) const;

    AnalysisPtr m_analysis;
    TimelineDataPtr m_data;
    LaneLayout m_layout;
    LaneViewport m_viewport;
    EventLanesPlottable* m_lanes = nullptr;
    QSharedPointer<TimeTicker> m_ticker;
    QSharedPointer<QCPAxisTickerText> m_laneTicker;
    QCPLegend* m_legend = nullptr;
    LegendMode m_legendMode = LegendMode::Auto;
    QPoint m_pressPos;
    Selection m_current;
    bool m_clamping = false;
};

}  // namespace attrib::views
