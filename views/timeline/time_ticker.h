// SPDX-License-Identifier: GPL-3.0-or-later
// Time axis ticks: wall-clock UTC labels, labels relative to the root cause, or time since boot (dmesg uptimes
// with no known boot time), at readable steps.
#pragma once

#include "views/timeline/qcp.h"
#include "views/timeline/timeline_layout.h"

namespace attrib::views {

class TimeTicker : public QCPAxisTicker {
public:
    enum class Mode { Utc, Relative, SinceBoot };

    void setOrigin(engine::TimeNs origin) { m_origin = origin; }
    /// Reference for relative labels, in seconds from the origin.
    void setReference(double seconds) { m_reference = seconds; }
    /// Where the boot is, in seconds from the origin, for SinceBoot labels.
    void setBootZero(double seconds) { m_bootZero = seconds; }
    void setMode(Mode mode) { m_mode = mode; }
    Mode mode() const { return m_mode; }

protected:
    double getTickStep(const QCPRange& range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;

private:
    engine::TimeNs m_origin = 0;
    double m_reference = 0;
    double m_bootZero = 0;
    double m_step = 1;
    Mode m_mode = Mode::Utc;
};

}  // namespace attrib::views
