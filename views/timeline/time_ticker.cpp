// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/timeline/time_ticker.h"

#include <cmath>

namespace attrib::views {

double TimeTicker::getTickStep(const QCPRange& range)
{
    m_step = niceTimeStep(range.size(), tickCount());
    return m_step;
}

int TimeTicker::getSubTickCount(double tickStep)
{
    const double mantissa = tickStep / std::pow(10.0, std::floor(std::log10(tickStep)));
    if (tickStep >= 60 && std::fmod(tickStep, 60) == 0)
        return tickStep / 60 <= 6 ? static_cast<int>(tickStep / 60) - 1 : 3;
    return std::abs(mantissa - 2) < 1e-6 ? 1 : 4;
}

QString TimeTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    if (m_mode == Mode::Relative)
        return formatRelativeTick(tick - m_reference, m_step);
    if (m_mode == Mode::SinceBoot)
        return formatRelativeTick(tick - m_bootZero, m_step);
    return formatUtcTick(m_origin, tick, m_step);
}

QVector<double> TimeTicker::createTickVector(double tickStep, const QCPRange& range)
{
    // Ticks sit on wall-clock multiples of the step (UTC) or on multiples from the reference (relative) or the boot.
    double anchor = m_mode == Mode::SinceBoot ? m_bootZero : m_reference;
    if (m_mode == Mode::Utc) {
        const engine::TimeNs wholeSeconds = m_origin / engine::NsPerSec;
        const double originSeconds = static_cast<double>(wholeSeconds);
        anchor = -std::fmod(originSeconds, tickStep >= 1 ? tickStep : 1.0);
    }
    QVector<double> ticks;
    const double first = std::ceil((range.lower - anchor) / tickStep);
    const double last = std::floor((range.upper - anchor) / tickStep);
    if (last - first > 1000)
        return ticks;
    for (double k = first - 1; k <= last + 1; ++k)
        ticks.append(anchor + k * tickStep);
    return ticks;
}

}  // namespace attrib::views
