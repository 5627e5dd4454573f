// SPDX-License-Identifier: GPL-3.0-or-later
// The HTTP layer of `attrib serve`: routes, authentication, limits, the worker pool, draining.
#include "service/http_service.h"

#include "engine/store/store_error.h"
#include "service/http_internal.h"

#include <QElapsedTimer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QHttpServerResponse>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrlQuery>

namespace attrib::service {

namespace http {

std::string methodName(QHttpServerRequest::Method m)
{
    switch (m) {
    case QHttpServerRequest::Method::Get: return "GET";
    case QHttpServerRequest::Method::Post: return "POST";
    case QHttpServerRequest::Method::Put: return "PUT";
    case QHttpServerRequest::Method::Delete: return "DELETE";
    case QHttpServerRequest::Method::Head: return "HEAD";
    default: return "OTHER";
    }
}

QByteArray header(const QHttpServerRequest& request, const QByteArray& name)
{
    for (const auto& [key, value] : request.headers())
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return {};
}

std::map<std::string, std::string> queryItems(const QHttpServerRequest& request)
{
    std::map<std::string, std::string> out;
    for (const auto& [key, value] : request.query().queryItems(QUrl::FullyDecoded))
        out[key.toStdString()] = value.toStdString();
    return out;
}

std::string contentType(const QHttpServerRequest& request)
{
    QByteArray type = header(request, "Content-Type");
    if (const qsizetype semi = type.indexOf(';'); semi >= 0)
        type.truncate(semi);
    return type.trimmed().toLower().toStdString();
}

void writeReply(QHttpServerResponder&& responder, const Reply& reply)
{
    QHttpServerResponse response(QByteArray::fromStdString(reply.contentType), QByteArray::fromStdString(reply.body),
                                 static_cast<QHttpServerResponse::StatusCode>(reply.status));
    for (const auto& [name, value] : reply.headers)
        response.addHeader(QByteArray::fromStdString(name), QByteArray::fromStdString(value));
    response.write(std::move(responder));
}

Reply runGuarded(const std::function<Reply(const engine::CancelFlag&)>& job, const engine::CancelFlag& cancel)
{
    try {
        return job(cancel);
    } catch (const store::StoreError& e) {
        return errorReply(503, std::string("the case store is unavailable: ") + e.what());
    } catch (const std::exception& e) {
        return errorReply(500, std::string("internal error: ") + e.what());
    }
}

}  // namespace http

bool tokenMatches(const QByteArray& authorization, const QByteArray& token)
{
    const QByteArray expected = "Bearer " + token;
    // Every byte of the longer string is visited whatever differs, so timing reveals neither prefix nor length.
    const qsizetype n = std::max(authorization.size(), expected.size());
    unsigned diff = authorization.size() == expected.size() ? 0u : 1u;
    for (qsizetype i = 0; i < n; ++i) {
        const unsigned char a = i < authorization.size() ? static_cast<unsigned char>(authorization[i]) : 0;
        const unsigned char b = i < expected.size() ? static_cast<unsigned char>(expected[i]) : 0;
        diff |= static_cast<unsigned>(a ^ b);
    }
    return diff == 0;
}

Service::Service(ServiceConfig config, engine::CatalogPtr catalog, std::shared_ptr<StorePool> store, QObject* parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_catalog(std::move(catalog))
    , m_store(std::move(store))
{
    m_pool.setMaxThreadCount(std::max(1, m_config.workers));
    m_pool.setExpiryTimeout(-1);
    m_metrics.setCatalogCaseFailures(m_catalog->casesFailed());
    addRoutes();
}

Service::~Service()
{
    m_pool.waitForDone();
}

bool Service::listen(QString* error)
{
    m_tcp = new QTcpServer(this);
    if (!m_tcp->listen(m_config.address, m_config.port)) {
        if (error)
            *error = m_config.address.toString() + ":" + QString::number(m_config.port) + ": " + m_tcp->errorString();
        return false;
    }
    m_http.bind(m_tcp);
    return true;
}

quint16 Service::port() const
{
    return m_tcp ? m_tcp->serverPort() : 0;
}

void Service::drain()
{
    m_draining = true;
    if (m_tcp)
        m_tcp->close();
    if (m_admitted == 0)
        QTimer::singleShot(0, this, &Service::drained);
}

bool Service::authorized(const QHttpServerRequest& request) const
{
    return m_config.token.isEmpty() || tokenMatches(http::header(request, "Authorization"), m_config.token);
}

void Service::immediate(const QHttpServerRequest& request, QHttpServerResponder&& responder, const char* route,
                        const Reply& reply)
{
    QElapsedTimer clock;
    clock.start();
    http::writeReply(std::move(responder), reply);
    m_metrics.recordRequest(route, http::methodName(request.method()), reply.status, clock.nsecsElapsed() / 1e9);
}

}  // namespace attrib::service
