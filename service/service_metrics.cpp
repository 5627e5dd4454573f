// SPDX-License-Identifier: GPL-3.0-or-later
// Prometheus text exposition of the Service's counters.
#include "service/service_metrics.h"

#include <cstdio>

namespace attrib::service {

namespace {

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

}  // namespace

void ServiceMetrics::recordRequest(const std::string& route, const std::string& method, int status, double seconds)
{
    std::lock_guard lock(m_mutex);
    ++m_requests[{route, method}][status];
    Histogram& h = m_latency[route];
    for (std::size_t i = 0; i < Buckets.size(); ++i)
        if (seconds <= Buckets[i])
            ++h.counts[i];
    ++h.count;
    h.sum += seconds;
}

void ServiceMetrics::recordVerdict(const std::string& terminalState)
{
    std::lock_guard lock(m_mutex);
    ++m_verdicts[terminalState];
}

QByteArray ServiceMetrics::exposition() const
{
    std::lock_guard lock(m_mutex);
    std::string out;
    out += "# HELP attrib_http_requests_total HTTP requests answered, by route, method and status.\n"
           "# TYPE attrib_http_requests_total counter\n";
    for (const auto& [key, statuses] : m_requests)
        for (const auto& [status, n] : statuses)
            out += "attrib_http_requests_total{route=\"" + key.first + "\",method=\"" + key.second + "\",status=\"" +
                std::to_string(status) + "\"} " + std::to_string(n) + "\n";
    out += "# HELP attrib_http_request_duration_seconds Time from receiving a request to answering it.\n"
           "# TYPE attrib_http_request_duration_seconds histogram\n";
    for (const auto& [route, h] : m_latency) {
        const std::string prefix = "attrib_http_request_duration_seconds";
        for (std::size_t i = 0; i < Buckets.size(); ++i)
            out += prefix + "_bucket{route=\"" + route + "\",le=\"" + number(Buckets[i]) + "\"} " +
                std::to_string(h.counts[i]) + "\n";
        out += prefix + "_bucket{route=\"" + route + "\",le=\"+Inf\"} " + std::to_string(h.count) + "\n";
        out += prefix + "_sum{route=\"" + route + "\"} " + number(h.sum) + "\n";
        out += prefix + "_count{route=\"" + route + "\"} " + std::to_string(h.count) + "\n";
    }
    out += "# HELP attrib_verdicts_total Attributions computed, by terminal state.\n"
           "# TYPE attrib_verdicts_total counter\n";
    for (const auto& [state, n] : m_verdicts)
        out += "attrib_verdicts_total{terminal_state=\"" + state + "\"} " + std::to_string(n) + "\n";
    out += "# HELP attrib_catalog_case_failures Inline rule cases that failed at startup (those rules are unused).\n"
           "# TYPE attrib_catalog_case_failures gauge\n"
           "attrib_catalog_case_failures " +
        std::to_string(m_catalogFailures.load()) + "\n";
    out += "# HELP attrib_requests_in_flight Attribution requests running and waiting for a worker.\n"
           "# TYPE attrib_requests_in_flight gauge\n"
           "attrib_requests_in_flight{state=\"running\"} " +
        std::to_string(m_running.load()) + "\nattrib_requests_in_flight{state=\"queued\"} " +
        std::to_string(m_queued.load()) + "\n";
    return QByteArray::fromStdString(out);
}

}  // namespace attrib::service
