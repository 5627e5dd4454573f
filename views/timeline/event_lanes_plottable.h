// SPDX-License-Identifier: GPL-3.0-or-later
// Draws all lanes in one plottable: stripes, symptom bars, event markers (aggregated per pixel column
// when dense), the root-cause line and the selection. Never one QCP item per event.
#pragma once

#include "views/presentation.h"
#include "views/timeline/qcp.h"
#include "views/timeline/timeline_data.h"

namespace attrib::views {

/// Counters of the last frame (for tests and the benchmark).
struct FrameStats {
    std::size_t lanesDrawn = 0;
    std::size_t marksVisited = 0;
    std::size_t markersDrawn = 0;
    std::size_t columnsDrawn = 0;
    std::size_t denseLanes = 0;
};

class EventLanesPlottable : public QCPAbstractPlottable {
    Q_OBJECT

public:
    EventLanesPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis);

    void setContent(AnalysisPtr analysis, TimelineDataPtr data, const LaneLayout* layout);
    void setSelectedEvent(int event) { m_selectedEvent = event; }
    void setSelectedSymptom(int symptom) { m_selectedSymptom = symptom; }
    /// Time mapping of the current key axis range over the axis rect.
    TimeMapping mapping() const;
    const FrameStats& lastFrame() const { return m_stats; }

    /// Geometry of a lane in pixels: band for bars and centre line of markers.
    struct LaneGeometry {
        double top = 0;
        double height = 0;
        QRectF barBand() const { return {0, top + height * 0.12, 0, height * 0.30}; }
        double markerY() const { return top + height * 0.68; }
    };
    LaneGeometry laneGeometry(int lane) const;
    /// The symptom bar of `lane` under `pixel`, or -1.
    int barAt(int lane, const QPointF& pixel) const;

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

private:
    void drawStripes(QCPPainter* painter, int first, int last) const;
    void drawBars(QCPPainter* painter, int lane, const TimeMapping& map) const;
    void drawMarks(QCPPainter* painter, int lane, const TimeMapping& map);
    void drawDense(std::span<const Mark> marks, std::span<const MarkBlockSummary> blocks, const TimeMapping& map,
                   double y, double laneHeight);
    void drawSparse(std::span<const Mark> marks, std::size_t first, std::size_t last, const TimeMapping& map, double y);
    void flushBatches(QCPPainter* painter, bool dense);
    void drawRootLine(QCPPainter* painter, const TimeMapping& map) const;
    void drawSelection(QCPPainter* painter, const TimeMapping& map) const;
    /// For a selected demoted or scrubbed symptom: an arrow from the symptom that explains it (cause -> effect).
    void drawCauseArrow(QCPPainter* painter, const TimeMapping& map) const;
    /// The bar rectangle of `symptom` on screen, or an empty rect.
    QRectF symptomRect(int symptom, const TimeMapping& map) const;
    void drawUncertain(QCPPainter* painter) const;
    QRectF barRect(const SymptomBar& bar, const TimeMapping& map, const LaneGeometry& g) const;

    AnalysisPtr m_analysis;
    TimelineDataPtr m_data;
    const LaneLayout* m_layout = nullptr;
    int m_selectedEvent = -1;
    int m_selectedSymptom = -1;
    FrameStats m_stats;
    std::vector<QColor> m_colors;            ///< (domain, role) -> marker colour
    std::vector<QColor> m_barColors;         ///< (domain, role) -> symptom bar colour
    std::vector<QVector<QLineF>> m_lines;    ///< per colour: dense columns of this frame
    std::vector<QVector<QPointF>> m_points;  ///< per colour: single markers of this frame
    QVector<QPointF> m_rootPoints;
    std::vector<MarkerShape> m_shapes;  ///< per domain
    struct Uncertain {
        QPointF at;
        std::size_t key;
        std::uint8_t time;
    };
    std::vector<Uncertain> m_uncertain;  ///< markers whose time is inherited or approximate, drawn apart
};

}  // namespace attrib::views
