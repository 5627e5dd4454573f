// SPDX-License-Identifier: GPL-3.0-or-later
// Report basics: the verdict as Markdown on the clipboard, the timeline as PNG or SVG.
#pragma once

#include <QObject>

class QWidget;

namespace attrib::views {
class TimelineView;
}

namespace attrib::app {

class BundleController;
class Settings;

class ReportActions : public QObject {
    Q_OBJECT

public:
    ReportActions(BundleController* bundles, views::TimelineView* timeline, Settings* settings, QWidget* parent);

    /// The Markdown report of the current analysis ("" without one).
    QString verdictMarkdown() const;
    /// Copies verdictMarkdown() to the clipboard; false without an analysis.
    bool copyVerdictMarkdown();
    /// Writes the timeline to `fileName`; the format follows the suffix (.svg, else PNG).
    bool exportTimeline(const QString& fileName);
    /// Asks for a file name, then exports.
    void exportTimelineInteractive(bool svg);

Q_SIGNALS:
    void statusMessage(const QString& text);

private:
    BundleController* m_bundles;
    views::TimelineView* m_timeline;
    Settings* m_settings;
    QWidget* m_parent;
};

}  // namespace attrib::app
