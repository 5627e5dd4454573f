// SPDX-License-Identifier: GPL-3.0-or-later
// The node of a record that names none itself: the job's only node (workload.json), a syslogd broadcast header, a
// `kubectl describe` object's `Node:` line, an event row's From column, a `qacct -j` block's `hostname` row and a
// pasted shell prompt's host (importers/collector_nodes.cpp).
#include "importer_test_util.h"

#include "importers/bundle.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace attrib;

namespace {

const char* const Xid79 =
    "NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.";

}  // namespace

class TestRecordNodes : public QObject {
    Q_OBJECT

private slots:
    void singleNodeJobNamesTheNode();
    void syslogBroadcastHeaderNamesTheNode();
    void kubectlDescribeNamesThePodsNode();
    void kubeletEventRowNamesItsNode();
    void qacctHostnameNamesItsBlocksNode();
    void shellPromptNamesTheNodeOfItsOutput();
};

void TestRecordNodes::singleNodeJobNamesTheNode()
{
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    tests::writeFile(root / "workload.json", "{\"id\": \"7\", \"nodes\": [\"gpu-n30\"]}\n");
    tests::writeFile(root / "dmesg.txt", std::string(Xid79) + "\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    for (const auto& f : outcome.result->fileCoverage)
        QCOMPARE(f.role, f.path == "workload.json" ? engine::FileRole::Workload : engine::FileRole::Evidence);
    QVERIFY(outcome.result->verdict.rootCause);
    QCOMPARE(QString::fromStdString(outcome.result->verdict.rootCause->node), QStringLiteral("gpu-n30"));
}

void TestRecordNodes::syslogBroadcastHeaderNamesTheNode()
{
    // A terminal paste of syslogd's wall broadcast: the header names the host, the message below it none. The
    // header names the next record only: a later line without a header stays without a node.
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    tests::writeFile(root / "terminal.txt",
                     "Message from syslogd@gpu-n21 at Feb 10 17:37:44 ...\n kernel:" + std::string(Xid79) + "\n\n" +
                         Xid79 + "\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    std::vector<std::string> nodes;
    for (const auto& o : outcome.result->observations)
        nodes.push_back(o.node);
    QCOMPARE(nodes, (std::vector<std::string>{"gpu-n21", ""}));
}

void TestRecordNodes::kubectlDescribeNamesThePodsNode()
{
    // `kubectl describe pod` names the node once, in the header; the eviction below it names none. A second object
    // (`Name:`) that was never scheduled (`Node: <none>`) must not inherit the first one's node.
    const std::string evicted = "  Warning  Evicted  5m  kubelet  The node was low on resource: memory. Container "
                                "trainer was using 9402820Ki, which exceeds its request of 7G.";
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    tests::writeFile(root / "kubectl-describe-pod.txt",
                     "Name:               trainer-79f7cbc6cf-rzck9\n"
                     "Namespace:          default\n"
                     "Node:               gke-pool-35dd7b4d-mv7w.c.project.internal/\n"
                     "Status:             Failed\n"
                     "Events:\n" +
                         evicted +
                         "\n"
                         "Name:               trainer-79f7cbc6cf-abcde\n"
                         "Node:               <none>\n"
                         "Events:\n" +
                         evicted + "\n");
    const auto outcome = tests::analyze(root.string());
    QVERIFY2(outcome.result, outcome.error.c_str());
    std::vector<std::string> nodes;
    for (const auto& o : outcome.result->observations)
        if (o.text.find("low on resource") != std::string::npos)
            nodes.push_back(o.node);
    QCOMPARE(nodes.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(nodes[0]), QStringLiteral("gke-pool-35dd7b4d-mv7w"));
    QCOMPARE(QString::fromStdString(nodes[1]), QString());
}

/// A kernel line copied into an application log (a syslog export's `UTC kern.alert kernel:`, a journal line behind
/// its stamp, a bare `kernel:` line) is read as the kernel's; `CUDA kernel: ...` prose without a stamp is not.

void TestRecordNodes::kubeletEventRowNamesItsNode()
{
    // Before Kubernetes 1.20 an event row's From column reads `kubelet, <node>`; a sentence naming kubelet does not.
    const auto outcome = tests::analyzeOneFile(
        "kubectl-describe-pod.txt",
        "  Warning  FailedCreatePodSandBox  2m  kubelet, kube-2  Failed to create pod sandbox: rpc "
        "error: code = Unknown desc = failed to find plugin \"macvlan\" in path [/opt/cni/bin]\n"
        "we restarted kubelet, then: failed to find plugin \"macvlan\" in path [/opt/cni/bin]\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    std::vector<std::string> nodes;
    for (const auto& o : outcome.result->observations)
        nodes.push_back(o.node);
    QCOMPARE(nodes.size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(nodes[0]), QStringLiteral("kube-2"));
    QCOMPARE(QString::fromStdString(nodes[1]), QString());
}

void TestRecordNodes::qacctHostnameNamesItsBlocksNode()
{
    // Grid Engine's `qacct -j`: the hostname row (right after qname) is the execution host of its job's block, as
    // sacct's NodeList is of its row; the next block's rule ends it, and a hostname row elsewhere names nothing.
    const std::string failed = "failed       37  : qmaster enforced h_rt, h_cpu, or h_vmem limit\n";
    const std::string rule = "==============================================================\n";
    const auto outcome = tests::analyzeOneFile("qacct-2253236.txt",
                                               "hs3163@csglogin:~$ qacct -j 2253236\n" + rule +
                                                   "qname        csg.q\nhostname     node55.cluster.local\n"
                                                   "group        hs3163\njobnumber    2253236\n" +
                                                   failed + "exit_status  137                  (Killed)\n" + rule +
                                                   "qname        csg.q\nhostname     node56\n" + failed + rule +
                                                   "owner        hs3163\nhostname     node57\n" + failed);
    QVERIFY2(outcome.result, outcome.error.c_str());
    std::vector<std::string> nodes;
    for (const auto& o : outcome.result->observations)
        if (o.text.find("qmaster enforced h_rt") != std::string::npos)
            nodes.push_back(o.node);
    QCOMPARE(nodes, (std::vector<std::string>{"node55", "node56", ""}));
    // One job's block: the time limit is that host's.
    const auto one = tests::analyzeOneFile("qacct.txt", rule + "qname        csg.q\nhostname     node55\n" + failed);
    QVERIFY2(one.result, one.error.c_str());
    QVERIFY(one.result->verdict.rootCause);
    QCOMPARE(QString::fromStdString(one.result->verdict.terminalState), QStringLiteral("timeout"));
    QCOMPARE(QString::fromStdString(one.result->verdict.rootCause->node), QStringLiteral("node55"));
}

void TestRecordNodes::shellPromptNamesTheNodeOfItsOutput()
{
    // A terminal session pasted into a ticket: each prompt's host is the node of the output below it, until the next
    // prompt; a remote or cluster-wide command's output (ssh, srun) is not the prompt host's, and a container's short
    // id is not a node.
    const auto xid = [](const char* bus, const char* pid) {
        return std::string("NVRM: Xid (PCI:0000:") + bus + "): 79, pid=" + pid + ", GPU has fallen off the bus.\n";
    };
    const auto outcome = tests::analyzeOneFile(
        "ticket.txt",
        "[root@gpu-n07 ~]# dmesg | grep -i xid\n" + xid("3b:00", "2211") +
            "(base) admin@gpu-n08:~$ sudo dmesg | tail -3\n" + xid("5e:00", "907") +
            "root@58814263a195:/workspace# nvidia-smi\n" + xid("d8:00", "77") + "admin@login01:~$ ssh gpu-n09 dmesg\n" +
            xid("86:00", "31") + "$ srun -N2 --pty dmesg\n" + xid("af:00", "4") + "that is all we have\n");
    QVERIFY2(outcome.result, outcome.error.c_str());
    std::vector<std::string> nodes;
    for (const auto& o : outcome.result->observations)
        nodes.push_back(o.node);
    QCOMPARE(nodes, (std::vector<std::string>{"gpu-n07", "gpu-n08", "", "", ""}));
}

QTEST_APPLESS_MAIN(TestRecordNodes)
#include "tst_record_nodes.moc"
