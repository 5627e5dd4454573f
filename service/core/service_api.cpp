// SPDX-License-Identifier: GPL-3.0-or-later
// POST /v1/attributions: input checking, the engine, keeping the attribution.
#include "service/core/service_api.h"

#include "engine/store/case_record.h"
#include "engine/verdict_json.h"
#include "service/core/attribution_runner.h"

#include <nlohmann/json.hpp>

namespace attrib::service {

namespace {

using nlohmann::ordered_json;

std::optional<ArchiveKind> archiveKind(const std::string& contentType)
{
    if (contentType == "application/gzip" || contentType == "application/x-gzip" ||
        contentType == "application/x-compressed-tar")
        return ArchiveKind::TarGz;
    if (contentType == "application/x-tar")
        return ArchiveKind::Tar;
    if (contentType == "application/zip")
        return ArchiveKind::Zip;
    return std::nullopt;
}

bool isObservationType(const std::string& contentType)
{
    return contentType.empty() || contentType == "application/json" || contentType == "application/x-ndjson" ||
        contentType == "application/jsonl" || contentType == "text/plain";
}

bool wantsTrace(const std::map<std::string, std::string>& query)
{
    const auto it = query.find("trace");
    return it != query.end() && (it->second == "true" || it->second == "1");
}

Reply verdictReply(const Attribution& a, bool trace)
{
    Reply r;
    r.terminalState = a.result->verdict.terminalState;
    if (!trace) {
        r.body = a.verdictJson;
        return r;
    }
    ordered_json j;
    j["verdict"] = ordered_json::parse(a.verdictJson);
    j["trace"] = engine::traceToJson(a.result->trace);
    r.body = engine::dumpJson(j);
    return r;
}

}  // namespace

Reply errorReply(int status, const std::string& message, const std::string& field)
{
    ordered_json e;
    e["status"] = status;
    e["message"] = message;
    if (!field.empty())
        e["field"] = field;
    Reply r;
    r.status = status;
    r.body = engine::dumpJson(ordered_json{{"error", e}});
    return r;
}

Reply postAttribution(const AttributionRequest& request, const engine::CatalogPtr& catalog, StorePool* store,
                      const engine::CancelFlag* cancel, std::size_t maxObservations)
{
    const auto archive = archiveKind(request.contentType);
    if (!archive && !isObservationType(request.contentType))
        return errorReply(415,
                          "Content-Type " + request.contentType +
                              " is not accepted: send application/json, application/x-ndjson, application/gzip "
                              "(a .tar.gz bundle), application/x-tar or application/zip",
                          "Content-Type");
    ObservationDocument doc;
    Attribution a;
    try {
        if (archive) {
            a = attributeArchive(request.body, *archive, catalog, cancel);
            if (a.result)
                doc = exportObservations(*a.result);  // what the engine kept of the archive
        } else {
            doc = parseObservationBody(request.body, maxObservations);
            a = attributeObservations(doc, catalog, cancel);
        }
    } catch (const InputError& e) {
        return errorReply(400, e.what(), e.field());
    }
    if (a.cancelled)
        return errorReply(504, "the attribution did not finish within the Service's time limit");
    if (!a.result)
        return errorReply(422, "nothing to analyse: " + a.error, "body");
    Reply reply = verdictReply(a, wantsTrace(request.query));
    if (store) {
        const auto record =
            attributionRecord(a, &doc, archive ? "service:archive" : "service:observations", store::nowNs());
        const std::int64_t id = store->with([&](store::CaseStore& s) { return s.addCase(record); });
        reply.headers.push_back({"X-Attribution-Id", std::to_string(id)});
        reply.headers.push_back({"Location", "/v1/attributions/" + std::to_string(id)});
    }
    return reply;
}

}  // namespace attrib::service
