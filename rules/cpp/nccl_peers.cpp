// SPDX-License-Identifier: GPL-3.0-or-later
// ResolveNcclPeers (early phase). NCCL facts: an IB work completion with status 12 (transport retry exceeded)
// means the peer HCA stopped answering; the reporting rank is usually the survivor and the peer it names is the
// suspect; both ends of one broken connection may report each other (shared/reference/domain.md §4.2, §12.4,
// §13.4). The rule learns address -> node from the evidence (NCCL Bootstrap/NET INFO lines of each node's ranks,
// IB localGid, hosts-file lines), resolves the peer of every report and raises a symptom on the peer's node
// whose evidence is the survivors' lines. A node named by more reporting nodes outranks one named by fewer.
// A socket report whose peer is the reporter's own node never crossed a network (NCCL's bootstrap and proxy
// sockets also join processes of one node); it takes the catalog's same-host symptom instead.
#include "rules/cpp/nccl_peers.h"
#include "rules/cpp/early_step.h"

#include "engine/pipeline.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace attrib::rules {

using namespace attrib::engine;
using nlohmann::json;

std::string normalizePeerAddress(std::string_view peer)
{
    std::string s;
    for (char c : peer)
        s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (auto pct = s.find('%'); pct != std::string::npos)
        s.erase(pct);
    s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == '[' || c == ']'; }), s.end());
    if (s.rfind("::ffff:", 0) == 0 && s.find('.') != std::string::npos)
        s.erase(0, 7);
    const bool hostName = s.find(':') == std::string::npos &&
        std::any_of(s.begin(), s.end(), [](char c) { return c >= 'a' && c <= 'z'; });
    if (hostName)
        s.erase(std::min(s.find('.'), s.size()));
    return s;
}

namespace {

/// A normalized peer that is a host name, not an address (a letter, no colon: IPv4 has no letters, IPv6 colons).
bool isHostName(const std::string& address)
{
    return address.find(':') == std::string::npos &&
        std::any_of(address.begin(), address.end(), [](char c) { return c >= 'a' && c <= 'z'; }) &&
        std::all_of(address.begin(), address.end(),
                    [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; });
}

/// One NCCL error line that names a peer which resolved to another node.
struct Report {
    const Event* event = nullptr;
    std::string address;
};

class ResolveNcclPeers final : public CodeRule {
public:
    explicit ResolveNcclPeers(json config)
        : m_config(std::move(config))
    {
        for (const auto& t : m_config.value("report_types", json::array({"nccl_ib_completion", "nccl_socket"})))
            m_reportTypes.insert(t.get<std::string>());
        for (const auto& s : m_config.value("ignore_statuses", json::array()))
            m_ignoreStatuses.insert(s.get<std::string>());
        for (const auto& t : m_config.value("same_host_types", json::array()))
            m_sameHostTypes.insert(t.get<std::string>());
    }

    std::string id() const override { return "ResolveNcclPeers"; }
    std::string description() const override
    {
        return "Names the node behind the peer address of NCCL IB/socket errors (the reporters are survivors)";
    }

    std::vector<Event> run(std::vector<Event> events, ExecutionContext& context, const Catalog& catalog,
                           TraceSink& trace) const override;

private:
    std::map<std::string, std::string> learnAddresses(const std::vector<Event>& events,
                                                      const std::set<std::string>& nodes, TraceSink& trace) const;
    std::map<std::string, std::vector<Report>> resolve(const std::vector<Event>& events,
                                                       const std::map<std::string, std::string>& book,
                                                       const std::set<std::string>& nodes,
                                                       const std::set<std::uint64_t>& sameHost, TraceSink& trace) const;
    void emit(const std::string& node, const std::vector<Report>& reports, const std::string& symptom,
              const std::string& stronger, std::vector<Event>& out) const;
    std::set<std::uint64_t> markSameHost(std::vector<Event>& events, const std::map<std::string, std::string>& book,
                                         TraceSink& trace) const;

    json m_config;
    std::set<std::string> m_reportTypes;
    std::set<std::string> m_ignoreStatuses;
    std::set<std::string> m_sameHostTypes;  ///< report types whose same-host peer means no network was involved
};

/// A normalized peer address that never leaves the host: IPv4 loopback, IPv6 loopback, or localhost.
bool isLoopback(const std::string& address)
{
    return address.rfind("127.", 0) == 0 || address == "::1" || address == "localhost";
}

std::string hostsAlias(const std::string& hosts, const std::set<std::string>& nodes)
{
    std::size_t pos = 0;
    while (pos < hosts.size()) {
        const std::size_t end = std::min(hosts.find_first_of(" \t", pos), hosts.size());
        std::string name = normalizePeerAddress(hosts.substr(pos, end - pos));
        if (nodes.count(name))
            return name;
        pos = hosts.find_first_not_of(" \t", end);
        if (pos == std::string::npos)
            break;
    }
    return {};
}

std::map<std::string, std::string> ResolveNcclPeers::learnAddresses(const std::vector<Event>& events,
                                                                    const std::set<std::string>& nodes,
                                                                    TraceSink& trace) const
{
    const std::string identity = m_config.value("identity_type", "net_identity");
    std::map<std::string, std::set<std::string>> seen;  // address -> nodes that claimed it
    for (const auto& e : events) {
        if (e.type != identity)
            continue;
        const std::string address = normalizePeerAddress(eventAttr(e, "ip"));
        const std::string node = e.attrs.count("hosts") ? hostsAlias(eventAttr(e, "hosts"), nodes) : e.node.str();
        if (!address.empty() && !node.empty())
            seen[address].insert(node);
    }
    std::map<std::string, std::string> book;
    std::string learned, conflicts;
    for (const auto& [address, owners] : seen) {
        if (owners.size() == 1) {
            book[address] = *owners.begin();
            learned += (learned.empty() ? "" : ", ") + address + "=" + *owners.begin();
        } else {
            conflicts += (conflicts.empty() ? "" : ", ") + address;
        }
    }
    TraceStep s =
        earlyStep(id(), TraceAction::Learn,
                  "learned " + std::to_string(book.size()) + " address -> node mapping(s)" +
                      (conflicts.empty() ? "" : "; ignored addresses claimed by several nodes: " + conflicts));
    s.details["map"] = learned;
    s.fired = !book.empty();
    trace.record(std::move(s));
    return book;
}

std::map<std::string, std::vector<Report>> ResolveNcclPeers::resolve(const std::vector<Event>& events,
                                                                     const std::map<std::string, std::string>& book,
                                                                     const std::set<std::string>& nodes,
                                                                     const std::set<std::uint64_t>& sameHost,
                                                                     TraceSink& trace) const
{
    std::map<std::string, std::vector<Report>> byPeer;
    std::set<std::string> unresolved;
    for (const auto& e : events) {
        if (!m_reportTypes.count(e.type) || m_ignoreStatuses.count(eventAttr(e, "status")) || sameHost.count(e.id))
            continue;
        const std::string address = normalizePeerAddress(eventAttr(e, "peer"));
        auto it = book.find(address);
        // A peer printed as a host name (`from peer node48<37948>`) names its node even when no line of that
        // node is in the bundle; a reporter whose own prefix was redacted still names its peer.
        const bool hostName = isHostName(address);
        if (e.node.empty() && !hostName)
            continue;
        const std::string node = it != book.end() ? it->second
            : (nodes.count(address) || hostName)  ? address
                                                  : std::string();
        if (node.empty()) {
            unresolved.insert(address);
            continue;
        }
        if (node != e.node)
            byPeer[node].push_back({&e, address});
    }
    if (!unresolved.empty()) {
        std::string list;
        for (const auto& a : unresolved)
            list += (list.empty() ? "" : ", ") + a;
        TraceStep s = earlyStep(id(), TraceAction::Resolve,
                                "no node known for peer address(es) " + list +
                                    "; add the NCCL INFO lines (NCCL_DEBUG=INFO) of every node");
        s.fired = false;
        trace.record(std::move(s));
    }
    return byPeer;
}

void ResolveNcclPeers::emit(const std::string& node, const std::vector<Report>& reports, const std::string& symptom,
                            const std::string& stronger, std::vector<Event>& out) const
{
    std::set<std::string> addresses, reporterNodes, entries;
    std::string reporters;
    std::uint64_t lines = 0;  // a folded report stands for its repeats too
    for (const auto& r : reports) {
        lines += 1 + r.event->folded;
        addresses.insert(r.address);
        reporterNodes.insert(r.event->node);
        const std::string status = eventAttr(*r.event, "status");
        const std::string entry = r.event->node +
            (r.event->rank >= 0 ? " rank " + std::to_string(r.event->rank) : std::string()) + " (" +
            (status.empty() ? eventAttr(*r.event, "what") : "status " + status) + ")";
        if (entries.insert(entry).second && entries.size() <= 6)
            reporters += (reporters.empty() ? "" : "; ") + entry;
    }
    if (entries.size() > 6)
        reporters += "; " + std::to_string(entries.size() - 6) + " more";
    std::string ips;
    for (const auto& a : addresses)
        ips += (ips.empty() ? "" : ", ") + a;
    for (const auto& r : reports) {
        Event e;
        e.type = "nccl_peer";
        e.rule = id();
        e.symptom = symptom;
        e.node = node;
        e.time = r.event->time;
        e.timeSource = r.event->timeSource;
        e.observations = r.event->observations;
        e.folded = r.event->folded;
        e.attrs = {{"peer_ips", ips},
                   {"reporters", reporters},
                   {"support", std::to_string(reporterNodes.size())},
                   {"reports", std::to_string(lines)}};
        if (!stronger.empty())
            e.attrs["stronger"] = stronger;
        out.push_back(std::move(e));
    }
}

/// A socket report whose peer is its own node (its host name, an address the evidence ties to it, or loopback) never
/// crossed a network: another process on that node closed or reset the connection. Such reports take the
/// configured same-host symptom instead of their network one, and the trace names them. Returns their ids, which
/// name no peer node.
std::set<std::uint64_t> ResolveNcclPeers::markSameHost(std::vector<Event>& events,
                                                       const std::map<std::string, std::string>& book,
                                                       TraceSink& trace) const
{
    std::set<std::uint64_t> marked;
    const std::string symptom = m_config.value("same_host_symptom", "");
    if (symptom.empty())
        return marked;
    std::map<std::string, std::vector<std::uint64_t>> byNode;
    for (auto& e : events) {
        if (!m_sameHostTypes.count(e.type) || e.node.empty() || e.symptom.empty())
            continue;
        const std::string address = normalizePeerAddress(eventAttr(e, "peer"));
        if (address.empty())
            continue;
        const auto it = book.find(address);
        const std::string owner = it != book.end() ? normalizePeerAddress(it->second) : address;
        if (!isLoopback(address) && owner != normalizePeerAddress(e.node.str()))
            continue;
        e.symptom = symptom;
        marked.insert(e.id);
        byNode[e.node.str()].push_back(e.id);
    }
    for (auto& [node, ids] : byNode) {
        TraceStep s =
            earlyStep(id(), TraceAction::Resolve,
                      node + ": " + std::to_string(ids.size()) +
                          " NCCL socket error(s) name a peer on the same host (no network between them): " + symptom);
        s.node = node;
        s.events = std::move(ids);
        trace.record(std::move(s));
    }
    return marked;
}

std::vector<Event> ResolveNcclPeers::run(std::vector<Event> events, ExecutionContext& context, const Catalog&,
                                         TraceSink& trace) const
{
    std::set<std::string> nodes(context.nodes.begin(), context.nodes.end());
    for (const auto& e : events)
        if (!e.node.empty())
            nodes.insert(e.node);
    const auto book = learnAddresses(events, nodes, trace);
    const auto sameHost = markSameHost(events, book, trace);
    const auto byPeer = resolve(events, book, nodes, sameHost, trace);
    std::map<std::string, std::size_t> support;
    std::map<std::string, std::uint64_t> lines;  // reports, folded repeats included
    std::size_t top = 0;
    for (const auto& [node, reports] : byPeer) {
        std::set<std::string> reporters;
        for (const auto& r : reports) {
            reporters.insert(r.event->node);
            lines[node] += 1 + r.event->folded;
        }
        support[node] = reporters.size();
        top = std::max(top, reporters.size());
    }
    std::string strongest;
    for (const auto& [node, n] : support)
        if (n == top)
            strongest += (strongest.empty() ? "" : ", ") + node;
    std::vector<Event> added;
    for (const auto& [node, reports] : byPeer) {
        const bool strong = support[node] == top;
        emit(node, reports,
             m_config.value(strong ? "symptom" : "weak_symptom",
                            strong ? "network_peer_unreachable" : "network_peer_named"),
             strong ? std::string() : strongest, added);
        TraceStep s = earlyStep(id(), TraceAction::Resolve,
                                node + " named by " + std::to_string(support[node]) + " node(s) in " +
                                    std::to_string(lines[node]) + " NCCL error(s)" +
                                    (strong ? ": suspect" : ": fewer reporters than " + strongest));
        s.node = node;
        for (const auto& r : reports)
            s.events.push_back(r.event->id);
        trace.record(std::move(s));
    }
    events.reserve(events.size() + added.size());  // exactly: insert alone may double the capacity
    events.insert(events.end(), std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
    return events;
}

}  // namespace

std::unique_ptr<CodeRule> makeResolveNcclPeers(const json& config)
{
    return std::make_unique<ResolveNcclPeers>(config);
}

}  // namespace attrib::rules
