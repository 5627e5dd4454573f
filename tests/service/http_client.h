// SPDX-License-Identifier: GPL-3.0-or-later
// A blocking HTTP call for the Service tests (spins an event loop, so an in-process Service keeps answering).
#pragma once

#include <QByteArray>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <string>

namespace attrib::tests {

struct HttpAnswer {
    int status = 0;  ///< 0 = no HTTP answer (connection error, timeout)
    std::string contentType;
    std::string body;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QByteArray header(const QByteArray& name) const { return headers.value(name.toLower()); }
    QMap<QByteArray, QByteArray> headers;
};

inline HttpAnswer httpCall(QNetworkAccessManager& nam, const QByteArray& verb, const QString& url,
                           const QByteArray& body = {}, const QByteArray& contentType = {},
                           const QByteArray& token = {}, int timeoutMs = 60000)
{
    nam.setProxy(QNetworkProxy::NoProxy);
    QNetworkRequest request{QUrl(url)};
    if (!contentType.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    if (!token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + token);
    QNetworkReply* reply = nam.sendCustomRequest(request, verb, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    HttpAnswer a;
    if (!reply->isFinished())
        reply->abort();
    a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    a.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toString().toStdString();
    a.body = reply->readAll().toStdString();
    a.error = reply->error();
    for (const auto& [k, v] : reply->rawHeaderPairs())
        a.headers[k.toLower()] = v;
    reply->deleteLater();
    return a;
}

}  // namespace attrib::tests
