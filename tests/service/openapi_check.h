// SPDX-License-Identifier: GPL-3.0-or-later
// A small OpenAPI 3 response checker for the Service tests: finds the schema of (path, method, status) in
// docs/service-openapi.json and checks a JSON body against it (type, required, properties, items, enum,
// nullable, oneOf, $ref). Enough to catch a response that drifts from the documented contract.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace attrib::tests {

class OpenApiCheck {
public:
    explicit OpenApiCheck(const std::string& specFile);
    /// "" when `body` matches the documented response, else the first problem ("$.items[0].id: expected integer").
    /// `pathTemplate` as in the spec ("/v1/attributions/{id}"); `method` lower case.
    std::string check(const std::string& pathTemplate, const std::string& method, int status,
                      const std::string& contentType, const std::string& body) const;

private:
    std::string validate(const nlohmann::json& schema, const nlohmann::json& value, const std::string& where) const;
    const nlohmann::json& resolve(const nlohmann::json& node) const;
    nlohmann::json m_spec;
};

}  // namespace attrib::tests
