// SPDX-License-Identifier: GPL-3.0-or-later
// The node of a record that names none itself, from the lines around it: a `kubectl describe` event row's From
// column, the object's `Node:` header, a `qacct -j` block's `hostname` row, a syslogd broadcast header.
#include "importers/collector.h"
#include "importers/format_prefix.h"
#include "importers/multiline.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace attrib::importers::detail {

/// An event row of `kubectl describe` before Kubernetes 1.20 names the node in its From column: `Warning  FailedMount
/// 3m  kubelet, gpu-node-7  MountVolume.SetUp failed ...`. Empty when the line holds no such column.
std::string Collector::kubeletEventNode(std::string_view text)
{
    constexpr std::string_view From = " kubelet, ";
    const std::size_t at = text.find(From);
    if (at == std::string_view::npos)
        return {};
    const std::string_view rest = text.substr(at + From.size());
    const std::size_t end = rest.find(' ');
    const std::string_view host = rest.substr(0, end);
    // The column ends in the table's gap of two or more blanks (or the line's end): prose ("kubelet, then") is no row.
    const bool column = end == std::string_view::npos || rest.substr(end, 2) == "  ";
    return column && isHostName(host) ? std::string(host) : std::string();
}

/// `kubectl describe pod` names the pod's node once, on the `Node:` line of its header (`Node: host/10.0.0.5`, or
/// `host/` once the pod is gone); the events listed under it name none. That node stands for the lines that follow,
/// until the next object's `Name:` line or another `Node:` line. Both are matched at the start of the line only.
void Collector::trackDescribedNode(const std::string& text, FileState& fs)
{
    trackAccountedNode(text, fs);
    if (text.rfind("Name:", 0) == 0) {
        fs.describedNode.clear();
        return;
    }
    if (text.rfind("Node:", 0) != 0)
        return;
    const std::string_view rest = std::string_view(text).substr(5);
    const std::size_t start = rest.find_first_not_of(" \t");
    if (start == std::string_view::npos)
        return;
    const std::string_view value = rest.substr(start);
    const std::size_t end = value.find_first_of("/ \t");
    const std::string_view host = value.substr(0, end);
    const bool plausible = !host.empty() && std::isalnum(static_cast<unsigned char>(host.front())) &&
        std::all_of(host.begin(), host.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
        });
    fs.describedNode = plausible ? shortHost(host) : std::string();
    fs.accountedNode = false;
}

namespace {

/// The value of a `qacct -j` row `key   value` (the key at the start of the line, blanks, one word); "" otherwise.
std::string_view accountingRow(std::string_view text, std::string_view key)
{
    if (text.substr(0, key.size()) != key || text.size() <= key.size() || text[key.size()] != ' ')
        return {};
    const std::string_view rest = text.substr(key.size());
    const std::size_t start = rest.find_first_not_of(' ');
    if (start == std::string_view::npos)
        return {};
    const std::string_view value = rest.substr(start);
    return value.substr(0, value.find_first_of(" \t"));
}

}  // namespace

/// Grid Engine's `qacct -j` prints one block per job: a rule of `=`, `qname <queue>`, `hostname <execution host>`,
/// then the job's rows (`failed 37 : qmaster enforced h_rt ...`, `exit_status 137`). The hostname row names the
/// node of its block, as sacct's NodeList does of its row: it holds from that row until the next block (its rule
/// or its qname row). Only a hostname row right after a qname row counts (a config dump's `hostname x` does not).
void Collector::trackAccountedNode(std::string_view text, FileState& fs)
{
    const bool rule = text.size() >= 20 && text.find_first_not_of('=') == std::string_view::npos;
    const bool qname = !accountingRow(text, "qname").empty();
    if (rule || qname) {
        if (fs.accountedNode)
            fs.describedNode.clear();
        fs.accountedNode = false;
        fs.afterQname = qname;
        return;
    }
    const std::string_view host = fs.afterQname ? accountingRow(text, "hostname") : std::string_view();
    fs.afterQname = false;
    if (!host.empty() && isHostName(host)) {
        fs.describedNode = shortHost(host);
        fs.accountedNode = true;
    }
}

namespace {

/// A host name that names no node: `localhost`, or the short id Docker names a container's host by
/// (`root@58814263a195:/workspace#`).
bool namesNoNode(std::string_view host)
{
    const bool containerId = host.size() == 12 && std::all_of(host.begin(), host.end(), [](char c) {
                                 return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
                             });
    return containerId || host == "localhost";
}

/// A command whose output comes from other machines (a remote shell, a scheduler's or a parallel launcher's client):
/// the lines after its prompt are not the prompt host's.
bool runsElsewhere(std::string_view command)
{
    static constexpr std::array<std::string_view, 28> remote = {
        "ssh",     "srun", "sbatch", "salloc",  "sacct", "squeue",   "sinfo",          "scontrol", "sstat", "mpirun",
        "mpiexec", "pdsh", "clush",  "ansible", "scp",   "rsync",    "kubectl",        "oc",       "helm",  "qacct",
        "qstat",   "qsub", "bjobs",  "bhist",   "bsub",  "condor_q", "condor_history", "deepspeed"};
    if (command.substr(0, 5) == "sudo ")
        command.remove_prefix(command.find_first_not_of(' ', 5) == std::string_view::npos
                                  ? command.size()
                                  : command.find_first_not_of(' ', 5));
    std::string_view word = command.substr(0, command.find(' '));
    word.remove_prefix(word.rfind('/') == std::string_view::npos ? 0 : word.rfind('/') + 1);
    return std::find(remote.begin(), remote.end(), word) != remote.end();
}

/// The host a shell prompt names and the command after it: `user@host:~/dir$ cmd`, `[user@host dir]# cmd`, after a
/// virtual environment's `(venv) `; false for any other line.
bool promptHost(std::string_view s, std::string_view& host, std::string_view& command)
{
    if (!isShellPrompt(s))
        return false;
    if (s[0] == '(')  // a virtual environment's name before the prompt
        s.remove_prefix(s.find(") ") + 2);
    // The prompt's `$` or `#`: after the bracket of `[user@host dir]$ `, else the last character of `user@host:dir$`.
    const bool bracketed = s[0] == '[';
    const std::size_t sign = bracketed ? s.find(']') + 1 : s.find(' ') - 1;
    const std::size_t at = s.find('@');
    const std::size_t hostEnd = at < sign ? s.find(bracketed ? ' ' : ':', at) : std::string_view::npos;
    if (hostEnd == std::string_view::npos || hostEnd > sign)
        return false;
    host = s.substr(at + 1, hostEnd - at - 1);
    const std::size_t start = s.find_first_not_of(' ', sign + 1);
    command = start == std::string_view::npos ? std::string_view() : s.substr(start);
    return isHostName(host) && !command.empty();
}

}  // namespace

/// A terminal session pasted into a ticket: `[root@gpu-n07 ~]# dmesg -T | grep Xid`, `user@gpu-n07:~$ python
/// train.py`. The prompt's host is the node of the lines that follow and name none, until the next prompt; a prompt
/// that runs a remote or cluster-wide command (`ssh`, `srun`, `kubectl`, ...) or a container's prompt names no node
/// for its output.
void Collector::trackPromptNode(std::string_view text, FileState& fs)
{
    std::string_view host;
    std::string_view command;
    if (promptHost(text, host, command))
        fs.promptNode = runsElsewhere(command) || namesNoNode(host) ? std::string() : shortHost(host);
    else if ((text.substr(0, 2) == "$ " || text.substr(0, 2) == "# ") && runsElsewhere(text.substr(2)))
        fs.promptNode.clear();
}

/// syslogd broadcasts an emergency message to the terminals (wall) in two lines: a header naming the host
/// (`Message from syslogd@gpu-n07 at Feb 10 17:37:44 ...`) and the message (` kernel:[ 1234.5] NMI watchdog: ...`).
/// Pasted from a terminal, the header's host is the message's node when the message names none.
void Collector::takeBroadcastHost(Record& r, FileState& fs)
{
    constexpr std::string_view Header = "Message from syslogd@";
    const std::size_t start = r.text.find_first_not_of(" \t");
    if (start == std::string::npos)
        return;
    const std::string_view text = std::string_view(r.text).substr(start);
    if (text.substr(0, Header.size()) == Header) {
        const std::string_view host = text.substr(Header.size(), text.find(' ', Header.size()) - Header.size());
        const bool plausible = !host.empty() && std::all_of(host.begin(), host.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
        });
        fs.broadcastHost = plausible ? std::string(host) : std::string();
        return;
    }
    if (r.host.empty())
        r.host = fs.broadcastHost;
    fs.broadcastHost.clear();
}

}  // namespace attrib::importers::detail
