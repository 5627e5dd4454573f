// SPDX-License-Identifier: GPL-3.0-or-later
// The Service's routes and the path of a request from admission to answer.
#include "service/http_internal.h"
#include "service/http_service.h"

#include <QHttpServerResponse>
#include <QTimer>

#include <nlohmann/json.hpp>

namespace attrib::service {

namespace {

Reply statusReply(int status, const nlohmann::ordered_json& body)
{
    Reply r;
    r.status = status;
    r.body = body.dump(2) + "\n";
    return r;
}

Reply statelessReply()
{
    return errorReply(404, "this Service keeps no attributions (start it with --store)");
}

}  // namespace

void Service::addRoutes()
{
    using Method = QHttpServerRequest::Method;
    using Responder = QHttpServerResponder;
    m_http.route("/healthz", Method::Get, [this](const QHttpServerRequest& req, Responder&& res) {
        immediate(req, std::move(res), "/healthz", statusReply(200, {{"status", "ok"}}));
    });
    m_http.route("/readyz", Method::Get, [this](const QHttpServerRequest& req, Responder&& res) {
        std::string reason = m_draining ? "shutting down" : catalogProblem(*m_catalog);
        if (reason.empty() && m_admitted >= m_config.workers + m_config.queueLimit)
            reason = "every worker is busy and the queue is full";
        const Reply r = reason.empty() ? statusReply(200, {{"status", "ready"}})
                                       : statusReply(503, {{"status", "not_ready"}, {"reason", reason}});
        immediate(req, std::move(res), "/readyz", r);
    });
    m_http.route("/metrics", Method::Get, [this](const QHttpServerRequest& req, Responder&& res) {
        Reply r;
        if (!authorized(req)) {
            r = errorReply(401, "a bearer token is required (Authorization: Bearer ...)");
            r.headers.push_back({"WWW-Authenticate", "Bearer"});
        } else {
            m_metrics.setInFlight(m_running.load(), std::max(0, m_admitted - m_running.load()));
            r.contentType = "text/plain; version=0.0.4; charset=utf-8";
            r.body = m_metrics.exposition().toStdString();
        }
        immediate(req, std::move(res), "/metrics", r);
    });
    m_http.route("/v1/catalog", Method::Get, [this](const QHttpServerRequest& req, Responder&& res) {
        dispatch(req, std::move(res), "/v1/catalog",
                 [this](const engine::CancelFlag&) { return catalogReply(*m_catalog); });
    });
    m_http.route("/v1/attributions", Method::Post, [this](const QHttpServerRequest& req, Responder&& res) {
        AttributionRequest in{http::contentType(req), http::queryItems(req), req.body().toStdString()};
        dispatch(req, std::move(res), "/v1/attributions", [this, in = std::move(in)](const engine::CancelFlag& cancel) {
            return postAttribution(in, m_catalog, m_store.get(), &cancel, m_config.maxObservations);
        });
    });
    m_http.route("/v1/attributions", Method::Get, [this](const QHttpServerRequest& req, Responder&& res) {
        dispatch(req, std::move(res), "/v1/attributions", [this, q = http::queryItems(req)](const auto&) {
            return m_store ? listAttributions(q, *m_store) : statelessReply();
        });
    });
    m_http.route("/v1/attributions/<arg>", Method::Get,
                 [this](const QString& id, const QHttpServerRequest& req, Responder&& res) {
                     dispatch(req, std::move(res), "/v1/attributions/{id}", [this, id = id.toStdString()](const auto&) {
                         return m_store ? getAttribution(id, *m_store) : statelessReply();
                     });
                 });
    m_http.route("/v1/attributions/<arg>/observations", Method::Get,
                 [this](const QString& id, const QHttpServerRequest& req, Responder&& res) {
                     dispatch(req, std::move(res), "/v1/attributions/{id}/observations",
                              [this, id = id.toStdString()](const auto&) {
                                  return m_store ? getObservations(id, *m_store) : statelessReply();
                              });
                 });
    m_http.setMissingHandler([this](const QHttpServerRequest& req, Responder&& res) {
        immediate(req, std::move(res), "other",
                  errorReply(404,
                             "no such route: " + http::methodName(req.method()) + " " +
                                 req.url().path().left(200).toStdString()));
    });
}

void Service::dispatch(const QHttpServerRequest& request, QHttpServerResponder&& responder, const char* route, Job job)
{
    Reply refusal;
    if (!authorized(request)) {
        refusal = errorReply(401, "a bearer token is required (Authorization: Bearer ...)");
        refusal.headers.push_back({"WWW-Authenticate", "Bearer"});
    } else if (request.body().size() > m_config.maxBodyBytes) {
        refusal = errorReply(413,
                             "the body has " + std::to_string(request.body().size()) +
                                 " bytes; this Service accepts at most " + std::to_string(m_config.maxBodyBytes),
                             "body");
    } else if (m_draining) {
        refusal = errorReply(503, "the Service is shutting down");
    } else if (m_admitted >= m_config.workers + m_config.queueLimit) {
        refusal = errorReply(
            429, "too many requests at once: " + std::to_string(m_admitted) + " are running or queued; retry later");
        refusal.headers.push_back({"Retry-After", "1"});
    }
    if (refusal.status != 200) {
        immediate(request, std::move(responder), route, refusal);
        return;
    }
    auto pending = std::make_shared<PendingRequest>();
    pending->clock.start();
    pending->socket = responder.socket();
    pending->responder = std::make_unique<QHttpServerResponder>(std::move(responder));
    pending->route = route;
    pending->method = http::methodName(request.method());
    ++m_admitted;
    QTimer::singleShot(m_config.timeLimitMs, this, [this, weak = std::weak_ptr<PendingRequest>(pending)] {
        if (auto p = weak.lock()) {
            p->cancel = true;
            answer(p,
                   errorReply(504,
                              "no answer within the Service's time limit of " + std::to_string(m_config.timeLimitMs) +
                                  " ms"));
        }
    });
    m_pool.start([this, pending, job = std::move(job)] {
        Reply reply;
        if (!pending->cancel) {  // still wanted: not timed out while queued
            ++m_running;
            reply = http::runGuarded(job, pending->cancel);
            --m_running;
        }
        QMetaObject::invokeMethod(
            this, [this, pending, reply] { finished(pending, reply); }, Qt::QueuedConnection);
    });
}

void Service::answer(const std::shared_ptr<PendingRequest>& pending, const Reply& reply)
{
    if (pending->answered)
        return;
    pending->answered = true;
    if (!reply.terminalState.empty())
        m_metrics.recordVerdict(reply.terminalState);
    m_metrics.recordRequest(pending->route, pending->method, reply.status, pending->clock.nsecsElapsed() / 1e9);
    if (pending->socket && pending->socket->state() == QAbstractSocket::ConnectedState) {
        http::writeReply(std::move(*pending->responder), reply);
        pending->socket->flush();  // into the kernel now: a draining Service may quit right after the last answer
    }
    // else: the client has gone; its socket (and the responder's request) may be deleted, so nothing is written
    pending->responder.reset();
}

void Service::finished(const std::shared_ptr<PendingRequest>& pending, const Reply& reply)
{
    answer(pending, reply);
    --m_admitted;
    if (m_draining && m_admitted == 0)
        QTimer::singleShot(0, this, &Service::drained);
}

}  // namespace attrib::service
