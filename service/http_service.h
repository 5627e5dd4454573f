// SPDX-License-Identifier: GPL-3.0-or-later
// `attrib serve`: the engine over HTTP/JSON (Qt HttpServer). This layer routes, authenticates (bearer token,
// constant-time compare), bounds the request body, admits work to a bounded worker pool with a queue limit,
// enforces a per-request time limit and drains on shutdown; service/core/service_api.h decides every answer.
#pragma once

#include "engine/catalog.h"
#include "service/core/service_api.h"
#include "service/core/store_pool.h"
#include "service/service_metrics.h"

#include <QHostAddress>
#include <QHttpServer>
#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>

class QTcpServer;

namespace attrib::service {

struct ServiceConfig {
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 8000;             ///< 0 = any free port (tests)
    QByteArray token;                ///< empty = no authentication
    qint64 maxBodyBytes = 64 << 20;  ///< larger bodies get 413
    int workers = 2;                 ///< attributions computed at once
    int queueLimit = 16;             ///< admitted requests waiting for a worker; beyond: 429
    int timeLimitMs = 60'000;        ///< per request, from arrival; beyond: 504
    std::size_t maxObservations = 2'000'000;
};

struct PendingRequest;

class Service : public QObject {
    Q_OBJECT
public:
    /// `store` may be null: a stateless Service (list and fetch answer 404 with a reason).
    Service(ServiceConfig config, engine::CatalogPtr catalog, std::shared_ptr<StorePool> store,
            QObject* parent = nullptr);
    ~Service() override;

    /// Starts listening; false with `error` set when the address cannot be bound.
    bool listen(QString* error);
    quint16 port() const;
    /// Stops accepting connections and new work; emits drained() once every admitted request is answered.
    void drain();
    bool draining() const { return m_draining; }
    int admitted() const { return m_admitted; }
    const ServiceMetrics& metrics() const { return m_metrics; }

Q_SIGNALS:
    void drained();

private:
    using Job = std::function<Reply(const engine::CancelFlag&)>;
    void addRoutes();
    /// Auth, drain and admission checks, then `job` on the pool; the answer goes back on this thread.
    void dispatch(const QHttpServerRequest& request, QHttpServerResponder&& responder, const char* route, Job job);
    void answer(const std::shared_ptr<PendingRequest>& pending, const Reply& reply);
    void finished(const std::shared_ptr<PendingRequest>& pending, const Reply& reply);
    bool authorized(const QHttpServerRequest& request) const;
    void immediate(const QHttpServerRequest& request, QHttpServerResponder&& responder, const char* route,
                   const Reply& reply);

    ServiceConfig m_config;
    engine::CatalogPtr m_catalog;
    std::shared_ptr<StorePool> m_store;
    QHttpServer m_http;
    QTcpServer* m_tcp = nullptr;
    QThreadPool m_pool;
    ServiceMetrics m_metrics;
    int m_admitted = 0;  ///< running + queued; touched on this object's thread only
    std::atomic<int> m_running{0};
    bool m_draining = false;
};

/// "Bearer <token>" against the configured token, in time independent of where they differ.
bool tokenMatches(const QByteArray& authorization, const QByteArray& token);

}  // namespace attrib::service
