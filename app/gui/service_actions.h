// SPDX-License-Identifier: GPL-3.0-or-later
// The workbench as a Service client: Settings > Service (URL, token, test connection), File > Open from Service
// (the Service's verdict beside the local engine's on the same observations) and Analysis > Analyze with Service
// (the open bundle's observations sent with progress and cancel). Errors are shown in the comparison window and
// the status bar, never in a blocking dialog.
#pragma once

#include "service/client/service_client.h"

#include <QObject>
#include <QPointer>

class QMenu;
class QMenuBar;
class QNetworkAccessManager;
class QNetworkReply;
class QProgressDialog;
class QWidget;

namespace attrib::app {

class BundleController;
class ServiceBrowser;
class ServiceComparisonView;
class Settings;

class ServiceActions : public QObject {
    Q_OBJECT

public:
    ServiceActions(Settings* settings, BundleController* bundles, QWidget* window);

    /// Adds the actions to the menu bar: File > Open from Service, Analysis > Analyze with Service, and a
    /// Settings menu (before Help) with Service... (the main window only wires them in).
    void install(QMenuBar* bar);

    service::ServiceEndpoint endpoint() const;
    /// False when the token could not be saved (its file is named in the dialog's message).
    bool setEndpoint(const QString& url, const QByteArray& token);

    void showSettings();
    /// Opens the browser on the configured Service.
    ServiceBrowser* openFromService();
    void analyzeWithService();
    /// The comparison window (created on first use).
    ServiceComparisonView* comparisonView();

Q_SIGNALS:
    void statusMessage(const QString& text);
    /// A comparison was shown (tests wait for it).
    void compared(int differingRows);

private:
    void onOpened(const QString& folder, const QByteArray& serviceVerdict, qint64 id);
    void compareWithCurrent(const QByteArray& serviceVerdict, const QString& title);
    void showProblem(const QString& text);

    Settings* m_settings;
    BundleController* m_bundles;
    QWidget* m_window;
    QNetworkAccessManager* m_nam;
    QPointer<ServiceComparisonView> m_view;
    QPointer<QNetworkReply> m_upload;
    QPointer<QProgressDialog> m_progress;
};

}  // namespace attrib::app
