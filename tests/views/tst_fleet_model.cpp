// SPDX-License-Identifier: GPL-3.0-or-later
// The fleet view's model (under QAbstractItemModelTester), its filter/sort proxy, repeat offenders, the fleet
// widget with 24 cases, and case reports (Markdown, HTML, PDF) that keep log text literal.
#include "../store/store_fixtures.h"

#include "views/store/case_report.h"
#include "views/store/fleet_model.h"
#include "views/store/fleet_view.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QListWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

#include "views/timeline/qcp.h"

using namespace attrib;
using namespace attrib::views;

namespace {

std::vector<store::CaseSummary> fleet(int n)
{
    std::vector<store::CaseSummary> out;
    for (int i = 1; i <= n; ++i) {
        auto c = store::testing::syntheticCase(i).summary;
        c.id = i;
        c.jobStart += (i % 6) * 86'400'000'000'000LL;
        if (i % 5 == 0)
            c.label = store::CaseLabel{c.terminalState, i % 10 ? c.subDomain : "gpu", c.rootNode, "checked", "ana", 1};
        out.push_back(c);
    }
    return out;
}

store::CaseRecord hostileCase()
{
    auto r = store::testing::syntheticCase(7);
    r.summary.id = 7;
    r.verdictJson = R"({"terminal_state":"hardware_failure","sub_domain":"nvlink",
      "root_cause":{"symptom":"nvlink_signal_integrity","node":"node-02","summary":"Xid 149 on GPU 3 <b>bold</b>",
        "rule":"HandleXidBurstEvents","decisive_evidence":{"file":"logs/kern.log","line":42,
        "text":"NVRM: Xid (PCI:0018:01:00): 149, <b>link</b> | down ``` `x`"}},
      "recommended_action":{"action":"drain node-02","why":"NVLink | SI"},
      "symptoms":[{"name":"nccl_timeout","node":"node-01","status":"demoted","status_rule":"Xid149AndNvlinkFiltering",
        "status_reason":"explained by <i>nvlink</i> | x"}],
      "coverage":[{"collector":"metrics","status":"missing","errors":["no DCGM <file>"]}]})";
    r.summary.label = store::CaseLabel{"hardware_failure", "nvlink", "node-02", "reseated <b>cable</b> | ok", "ana", 1};
    return r;
}

}  // namespace

class TestFleetModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void modelPassesTheTester()
    {
        FleetModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setCases(fleet(24));
        QCOMPARE(model.rowCount(), 24);
        QCOMPARE(model.columnCount(), int(FleetModel::ColumnCount));
        FleetFilterProxy proxy;
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setFilterFixedString(QStringLiteral("NVLINK"));
        QCOMPARE(proxy.rowCount(), 12);
        proxy.setFilterFixedString(QString());
        proxy.setNodeFilter(QStringLiteral("node-01"));
        QCOMPARE(proxy.rowCount(), 6);
        proxy.setNodeFilter(QString());
        proxy.sort(FleetModel::TimeColumn, Qt::AscendingOrder);
        qlonglong last = LLONG_MIN;
        for (int r = 0; r < proxy.rowCount(); ++r) {
            const auto t = proxy.index(r, FleetModel::TimeColumn).data(FleetModel::SortRole).toLongLong();
            QVERIFY(t >= last);
            last = t;
        }
        model.setCases({});
        QCOMPARE(proxy.rowCount(), 0);
    }

    void agreementAndRepeatOffenders()
    {
        FleetModel model;
        model.setCases(fleet(24));
        const auto agree = [&](int id) { return model.index(id - 1, FleetModel::AgreeColumn).data().toString(); };
        QCOMPARE(agree(5), QStringLiteral("yes"));
        QCOMPARE(agree(10), QStringLiteral("no"));
        QCOMPARE(agree(11), QStringLiteral("-"));
        const auto offenders = model.repeatOffenders();
        QCOMPARE(offenders.size(), std::size_t(4));
        QCOMPARE(offenders[0].second.size(), std::size_t(6));
        QVERIFY(model.index(0, FleetModel::NodeColumn).data(FleetModel::RepeatOffenderRole).toBool());
    }

    void fleetViewShowsChartAndOffenders()
    {
        FleetView view;
        view.resize(1200, 800);
        view.setCases(fleet(24));
        QVERIFY(view.chart()->plottableCount() >= 2);
        QCOMPARE(view.offenders()->count(), 5);  // "All cases" + 4 nodes
        view.offenders()->setCurrentRow(1);
        QCOMPARE(view.table()->model()->rowCount(), 6);
        view.offenders()->setCurrentRow(0);
        QCOMPARE(view.table()->model()->rowCount(), 24);
        QSignalSpy activated(&view, &FleetView::caseActivated);
        view.table()->activated(view.table()->model()->index(0, 0));
        QCOMPARE(activated.size(), 1);
        if (const QByteArray shot = qgetenv("ATTRIB_SCREENSHOT_DIR"); !shot.isEmpty()) {
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            view.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("/fleet-view.png"));
        }
    }

    void reportsKeepLogTextLiteral()
    {
        const auto record = hostileCase();
        const QString md = caseReportMarkdown(record);
        QVERIFY(md.contains(QStringLiteral("NVRM: Xid (PCI:0018:01:00): 149, <b>link</b> | down")));  // in a code block
        QVERIFY(md.contains(QStringLiteral("\n````\nNVRM")));  // the fence outgrows the ``` inside the line
        QVERIFY(md.contains(QStringLiteral("explained by \\<i\\>nvlink\\</i\\> \\| x")));
        QVERIFY(md.contains(QStringLiteral("reseated \\<b\\>cable\\</b\\> \\| ok")));
        QVERIFY(!md.contains(QStringLiteral("<i>")));
        const QString html = caseReportHtml(record);
        QVERIFY(html.contains(QStringLiteral("149, &lt;b&gt;link&lt;/b&gt; | down")));
        QVERIFY(!html.contains(QStringLiteral("<b>link</b>")));
        QVERIFY(!html.contains(QStringLiteral("<i>nvlink")));
        QTextDocument doc;
        doc.setHtml(html);
        QVERIFY(doc.toPlainText().contains(QStringLiteral("NVRM: Xid (PCI:0018:01:00): 149, <b>link</b> | down")));
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("case.pdf"));
        QString error;
        QVERIFY2(writeCaseReportPdf(record, pdf, &error), qPrintable(error));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.size() > 2000);
        QVERIFY(!writeCaseReportPdf(record, dir.filePath(QStringLiteral("no/such/dir/x.pdf")), &error));
        QVERIFY(error.contains(QStringLiteral("x.pdf")));
    }
};

QTEST_MAIN(TestFleetModel)
#include "tst_fleet_model.moc"
