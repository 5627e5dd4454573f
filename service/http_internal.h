// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to the Service's HTTP layer: the state of one admitted request and request/answer helpers.
#pragma once

#include "engine/progress.h"
#include "service/core/service_api.h"

#include <QElapsedTimer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QPointer>
#include <QTcpSocket>

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace attrib::service {

/// One admitted request between arrival and answer. Lives on the Service's thread; the worker only reads
/// `cancel` and produces a Reply.
struct PendingRequest {
    std::unique_ptr<QHttpServerResponder> responder;
    QPointer<QTcpSocket> socket;  ///< the responder must not write once the client has gone
    const char* route = "";
    std::string method;
    QElapsedTimer clock;
    engine::CancelFlag cancel{false};
    bool answered = false;
};

namespace http {

std::string methodName(QHttpServerRequest::Method m);
/// A request header, by case-insensitive name ("" when absent).
QByteArray header(const QHttpServerRequest& request, const QByteArray& name);
std::map<std::string, std::string> queryItems(const QHttpServerRequest& request);
/// The Content-Type without parameters, lower case.
std::string contentType(const QHttpServerRequest& request);
void writeReply(QHttpServerResponder&& responder, const Reply& reply);
/// Runs a job, turning what escapes it into an answer (503 for the store, 500 otherwise).
Reply runGuarded(const std::function<Reply(const engine::CancelFlag&)>& job, const engine::CancelFlag& cancel);

}  // namespace http

}  // namespace attrib::service
