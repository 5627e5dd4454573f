// SPDX-License-Identifier: GPL-3.0-or-later
// The client side of the Service (docs/service-api.md), shared by `attrib analyze --service` and the
// workbench: requests with the bearer token, answers read into one struct, errors in one clear line.
#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QUrl>

#include <string>

class QNetworkAccessManager;
class QNetworkReply;

namespace attrib::service {

/// Where a Service is and how to authenticate to it.
struct ServiceEndpoint {
    QUrl base;  ///< "http://127.0.0.1:8000"
    QByteArray token;
    /// `path` ("/v1/attributions?limit=5") resolved against the base.
    QUrl url(const QString& path) const;
};

/// An answer, or why there is none.
struct ClientReply {
    int status = 0;  ///< 0 = no HTTP answer
    QByteArray body;
    QByteArray contentType;
    QMap<QByteArray, QByteArray> headers;  ///< lower-case names
    QString networkError;                  ///< when there is no HTTP answer (refused, timed out, ...)
    bool ok() const { return status == 200; }
};

/// Starts a request (the token as `Authorization: Bearer`, no proxy); the reply belongs to the caller.
QNetworkReply* startRequest(QNetworkAccessManager& nam, const ServiceEndpoint& endpoint, const QByteArray& verb,
                            const QString& path, const QByteArray& body = {}, const QByteArray& contentType = {});
/// Reads a finished reply.
ClientReply readReply(QNetworkReply* reply);
/// Sends a request and waits (spinning a local event loop) at most `timeoutMs`.
ClientReply blockingRequest(QNetworkAccessManager& nam, const ServiceEndpoint& endpoint, const QByteArray& verb,
                            const QString& path, const QByteArray& body = {}, const QByteArray& contentType = {},
                            int timeoutMs = 120000);

/// One line for a failed call: "cannot reach http://...: Connection refused", "the Service refused the token
/// (401)", "the request is too large for the Service (413): ...", "the Service is busy (429): retry later".
QString problemText(const ServiceEndpoint& endpoint, const ClientReply& reply);

/// Reads a token file (one non-empty line); empty with `error` set on failure.
QByteArray readTokenFile(const QString& file, QString* error);

}  // namespace attrib::service
