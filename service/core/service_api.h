// SPDX-License-Identifier: GPL-3.0-or-later
// The Service's operations as plain functions from a request's parts to a reply (docs/service-api.md). The
// HTTP layer (service/http_service.cpp) only routes, authenticates, limits and schedules; everything a
// response says is decided here, without Qt.
#pragma once

#include "engine/catalog.h"
#include "engine/progress.h"
#include "service/core/store_pool.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace attrib::service {

struct Reply {
    int status = 200;
    std::string contentType = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string terminalState;  ///< set when an attribution was computed (for the metrics)
};

/// {"error": {"status", "message", "field"?}}.
Reply errorReply(int status, const std::string& message, const std::string& field = {});

/// What the POST handler needs besides the body.
struct AttributionRequest {
    std::string contentType;                   ///< the Content-Type header, lower case, without parameters
    std::map<std::string, std::string> query;  ///< decoded query items
    std::string body;
};

/// POST /v1/attributions. `store` may be null (a stateless Service). 400 names the wrong field, 415 an
/// unknown content type, 422 an input with nothing to analyse, 504 when `cancel` was raised (time limit).
Reply postAttribution(const AttributionRequest& request, const engine::CatalogPtr& catalog, StorePool* store,
                      const engine::CancelFlag* cancel, std::size_t maxObservations);

/// GET /v1/attributions?since=&terminal_state=&sub_domain=&node=&limit=&cursor=
Reply listAttributions(const std::map<std::string, std::string>& query, StorePool& store);
/// GET /v1/attributions/{id}: the verdict exactly as computed.
Reply getAttribution(const std::string& id, StorePool& store);
/// GET /v1/attributions/{id}/observations: the observations as NDJSON (application/x-ndjson).
Reply getObservations(const std::string& id, StorePool& store);

/// GET /v1/catalog: versions, hash, self-test state, every rule with its inline-case results.
Reply catalogReply(const engine::Catalog& catalog);
/// Why the catalog cannot serve ("" = it can): no usable rules, or failing inline cases.
std::string catalogProblem(const engine::Catalog& catalog);

}  // namespace attrib::service
