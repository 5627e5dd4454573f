// SPDX-License-Identifier: GPL-3.0-or-later
// The Service's Prometheus metrics (text exposition format 0.0.4): requests by route and status, a latency
// histogram by route, verdicts by terminal state, catalog case failures, in-flight and queued requests.
#pragma once

#include <QByteArray>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace attrib::service {

class ServiceMetrics {
public:
    /// Latency bucket bounds in seconds (the histogram's `le` values).
    static constexpr std::array<double, 12> Buckets = {0.005, 0.01, 0.025, 0.05, 0.1,  0.25,
                                                       0.5,   1.0,  2.5,   5.0,  10.0, 30.0};

    /// One answered request; `route` is the route pattern ("/v1/attributions/{id}"), not the raw path.
    void recordRequest(const std::string& route, const std::string& method, int status, double seconds);
    void recordVerdict(const std::string& terminalState);
    void setCatalogCaseFailures(std::size_t failed) { m_catalogFailures = failed; }
    void setInFlight(int running, int queued)
    {
        m_running = running;
        m_queued = queued;
    }

    QByteArray exposition() const;

private:
    struct Histogram {
        std::array<std::uint64_t, Buckets.size()> counts{};
        std::uint64_t count = 0;
        double sum = 0;
    };
    mutable std::mutex m_mutex;
    std::map<std::pair<std::string, std::string>, std::map<int, std::uint64_t>> m_requests;  ///< (route, method)
    std::map<std::string, Histogram> m_latency;
    std::map<std::string, std::uint64_t> m_verdicts;
    std::atomic<std::size_t> m_catalogFailures{0};
    std::atomic<int> m_running{0};
    std::atomic<int> m_queued{0};
};

}  // namespace attrib::service
