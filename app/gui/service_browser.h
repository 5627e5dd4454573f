// SPDX-License-Identifier: GPL-3.0-or-later
// File > Open from Service: the Service's stored attributions, filterable and paginated, loaded in the
// background; opening one downloads its verdict and observations (the observations into a cache folder the
// workbench then analyses with the local catalog).
#pragma once

#include "service/client/service_client.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QNetworkAccessManager;
class QPushButton;
class QTableWidget;

namespace attrib::app {

class ServiceBrowser : public QDialog {
    Q_OBJECT

public:
    /// `cacheDir`: where downloaded observations are kept (one folder per attribution).
    ServiceBrowser(service::ServiceEndpoint endpoint, QString cacheDir, QWidget* parent = nullptr);

    /// Reloads the first page with the current filter.
    void refresh();
    /// Downloads the attribution in `row`; opened() follows (or failed()).
    void openRow(int row);
    QTableWidget* table() const { return m_table; }

Q_SIGNALS:
    /// The observations are in `bundleFolder`; `serviceVerdict` is the Service's verdict JSON.
    void opened(const QString& bundleFolder, const QByteArray& serviceVerdict, qint64 id);
    void failed(const QString& message);
    void pageLoaded(int rows);

private:
    void loadPage(const QString& cursor);
    void showPage(const service::ClientReply& reply, bool append);
    void setBusy(const QString& text);
    void fail(const QString& text);
    void writeBundle(qint64 id, const QByteArray& verdict, const QByteArray& observations);

    service::ServiceEndpoint m_endpoint;
    QString m_cacheDir;
    QNetworkAccessManager* m_nam;
    QComboBox* m_terminal;
    QLineEdit* m_node;
    QTableWidget* m_table;
    QLabel* m_status;
    QPushButton* m_more;
    QPushButton* m_open;
    QString m_nextCursor;
};

}  // namespace attrib::app
