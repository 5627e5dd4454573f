// SPDX-License-Identifier: GPL-3.0-or-later
// A throwaway PostgreSQL for tests and benchmarks (docs: shared toolchain notes §7): initdb into a temporary
// folder, pg_ctl on a free port with a Unix socket only. initdb refuses root, so as root the server runs as
// nobody, which then owns the folder.
#pragma once

#include <QDir>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>

#include <unistd.h>

namespace attrib::tests {

class ThrowawayPostgres {
public:
    ~ThrowawayPostgres() { stop(); }

    /// The server programs' folder ("" when PostgreSQL is not installed).
    static QString binDir()
    {
        const QStringList versions = QDir(QStringLiteral("/usr/lib/postgresql"))
                                         .entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name | QDir::Reversed);
        for (const QString& v : versions)
            if (QFile::exists("/usr/lib/postgresql/" + v + "/bin/initdb"))
                return "/usr/lib/postgresql/" + v + "/bin";
        return {};
    }

    /// Starts the server; "" on success, else what failed (with the tool's output).
    QString start()
    {
        m_bin = binDir();
        if (m_bin.isEmpty())
            return QStringLiteral("PostgreSQL is not installed");
        if (!m_dir.isValid())
            return QStringLiteral("no temporary folder");
        if (::geteuid() == 0 &&
            QProcess::execute(QStringLiteral("chown"), {QStringLiteral("nobody"), m_dir.path()}) != 0)
            return QStringLiteral("cannot hand the folder to nobody");
        QTcpServer probe;  // a free port number; it only names the Unix socket
        if (!probe.listen(QHostAddress::LocalHost, 0))
            return QStringLiteral("no free port");
        const QString port = QString::number(probe.serverPort());
        probe.close();
        QString out;
        if (asServer(m_bin + "/initdb", {"-D", m_dir.path() + "/data", "-A", "trust", "-U", "attrib"}, &out) != 0)
            return "initdb failed: " + out;
        if (asServer(m_bin + "/pg_ctl",
                     {"-D", m_dir.path() + "/data", "-l", m_dir.path() + "/pg.log", "-w", "-o",
                      "-k " + m_dir.path() + " -p " + port + " -c listen_addresses='' -c max_connections=200", "start"},
                     &out) != 0)
            return "pg_ctl start failed: " + out;
        m_started = true;
        m_conninfo = "host=" + m_dir.path() + " port=" + port + " user=attrib dbname=postgres";
        return {};
    }

    void stop()
    {
        if (m_started)
            asServer(m_bin + "/pg_ctl", {"-D", m_dir.path() + "/data", "-m", "fast", "-w", "stop"});
        m_started = false;
    }

    /// libpq connection string for the running server.
    const QString& conninfo() const { return m_conninfo; }
    QString folder() const { return m_dir.path(); }

private:
    int asServer(const QString& program, const QStringList& args, QString* output = nullptr)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        if (::geteuid() == 0)
            p.start(QStringLiteral("setpriv"),
                    QStringList{"--reuid=nobody", "--regid=nogroup", "--clear-groups", program} + args);
        else
            p.start(program, args);
        p.waitForFinished(120000);
        if (output)
            *output = QString::fromUtf8(p.readAll());
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

    QTemporaryDir m_dir;
    QString m_bin;
    QString m_conninfo;
    bool m_started = false;
};

}  // namespace attrib::tests
