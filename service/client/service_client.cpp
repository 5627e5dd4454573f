// SPDX-License-Identifier: GPL-3.0-or-later
// Talking to a Service over Qt Network.
#include "service/client/service_client.h"

#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

namespace attrib::service {

QUrl ServiceEndpoint::url(const QString& path) const
{
    QString b = base.toString();
    while (b.endsWith(QLatin1Char('/')))
        b.chop(1);
    return QUrl(b + path);
}

QNetworkReply* startRequest(QNetworkAccessManager& nam, const ServiceEndpoint& endpoint, const QByteArray& verb,
                            const QString& path, const QByteArray& body, const QByteArray& contentType)
{
    nam.setProxy(QNetworkProxy::NoProxy);
    QNetworkRequest request(endpoint.url(path));
    if (!contentType.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    if (!endpoint.token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + endpoint.token);
    return nam.sendCustomRequest(request, verb, body);
}

ClientReply readReply(QNetworkReply* reply)
{
    ClientReply r;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.body = reply->readAll();
    r.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    for (const auto& [k, v] : reply->rawHeaderPairs())
        r.headers[k.toLower()] = v;
    if (r.status == 0)
        r.networkError = reply->errorString();
    return r;
}

ClientReply blockingRequest(QNetworkAccessManager& nam, const ServiceEndpoint& endpoint, const QByteArray& verb,
                            const QString& path, const QByteArray& body, const QByteArray& contentType, int timeoutMs)
{
    QNetworkReply* reply = startRequest(nam, endpoint, verb, path, body, contentType);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    ClientReply r;
    if (reply->isFinished()) {
        r = readReply(reply);
    } else {
        reply->abort();
        r.networkError = QStringLiteral("no answer within %1 s").arg(timeoutMs / 1000);
    }
    reply->deleteLater();
    return r;
}

QString problemText(const ServiceEndpoint& endpoint, const ClientReply& reply)
{
    const QString where = endpoint.base.toString();
    if (reply.status == 0)
        return QStringLiteral("cannot reach the Service at %1: %2").arg(where, reply.networkError);
    const QJsonObject error = QJsonDocument::fromJson(reply.body).object().value(QStringLiteral("error")).toObject();
    QString message = error.value(QStringLiteral("message")).toString();
    if (message.isEmpty())
        message = QString::fromUtf8(reply.body.left(200)).simplified();
    switch (reply.status) {
    case 401:
        return QStringLiteral("the Service at %1 wants a valid bearer token (401): set one (--token-file)").arg(where);
    case 413: return QStringLiteral("the request is too large for the Service (413): %1").arg(message);
    case 429: return QStringLiteral("the Service is busy (429): %1").arg(message);
    case 504: return QStringLiteral("the Service gave up within its time limit (504): %1").arg(message);
    default: return QStringLiteral("the Service answered %1: %2").arg(reply.status).arg(message);
    }
}

QByteArray readTokenFile(const QString& file, QString* error)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the token file %1: %2").arg(file, f.errorString());
        return {};
    }
    const QByteArray token = f.readAll().trimmed();
    if (token.isEmpty() || token.contains('\n'))
        *error = QStringLiteral("%1: the token file must hold one non-empty line").arg(file);
    return error->isEmpty() ? token : QByteArray();
}

}  // namespace attrib::service
