// SPDX-License-Identifier: GPL-3.0-or-later
// Checking Service responses against the OpenAPI document.
#include "tests/service/openapi_check.h"

#include <fstream>
#include <stdexcept>

namespace attrib::tests {

using nlohmann::json;

OpenApiCheck::OpenApiCheck(const std::string& specFile)
{
    std::ifstream in(specFile);
    m_spec = json::parse(in, nullptr, false);
    if (m_spec.is_discarded() || !m_spec.contains("paths"))
        throw std::runtime_error(specFile + ": not an OpenAPI document");
}

const json& OpenApiCheck::resolve(const json& node) const
{
    const json* n = &node;
    while (n->is_object() && n->contains("$ref")) {
        const std::string ref = (*n)["$ref"].get<std::string>();  // "#/components/schemas/X"
        n = &m_spec.at(json::json_pointer(ref.substr(1)));
    }
    return *n;
}

namespace {

bool hasType(const json& v, const std::string& type)
{
    if (type == "object")
        return v.is_object();
    if (type == "array")
        return v.is_array();
    if (type == "string")
        return v.is_string();
    if (type == "integer")
        return v.is_number_integer();
    if (type == "number")
        return v.is_number();
    if (type == "boolean")
        return v.is_boolean();
    return false;
}

}  // namespace

std::string OpenApiCheck::validate(const json& schemaNode, const json& v, const std::string& where) const
{
    const json& s = resolve(schemaNode);
    if (v.is_null())
        return s.value("nullable", false) ? "" : where + ": null where the schema does not allow it";
    if (s.contains("oneOf")) {
        for (const auto& alt : s["oneOf"])
            if (validate(alt, v, where).empty())
                return {};
        return where + ": matches none of the oneOf alternatives";
    }
    if (s.contains("type") && !hasType(v, s["type"].get<std::string>()))
        return where + ": expected " + s["type"].get<std::string>() + ", got " + v.type_name();
    if (s.contains("enum") && std::find(s["enum"].begin(), s["enum"].end(), v) == s["enum"].end())
        return where + ": " + v.dump() + " is not one of " + s["enum"].dump();
    if (v.is_object()) {
        const json required = s.value("required", json::array());
        const json properties = s.value("properties", json::object());
        for (const auto& name : required)
            if (!v.contains(name.get<std::string>()))
                return where + ": required member \"" + name.get<std::string>() + "\" is missing";
        for (const auto& [name, sub] : properties.items())
            if (v.contains(name))
                if (auto p = validate(sub, v[name], where + "." + name); !p.empty())
                    return p;
        if (s.contains("additionalProperties") && s["additionalProperties"].is_object())
            for (const auto& [name, value] : v.items())
                if (auto p = validate(s["additionalProperties"], value, where + "." + name); !p.empty())
                    return p;
    }
    if (v.is_array() && s.contains("items"))
        for (std::size_t i = 0; i < v.size(); ++i)
            if (auto p = validate(s["items"], v[i], where + "[" + std::to_string(i) + "]"); !p.empty())
                return p;
    return {};
}

std::string OpenApiCheck::check(const std::string& pathTemplate, const std::string& method, int status,
                                const std::string& contentType, const std::string& body) const
{
    const json& paths = m_spec["paths"];
    if (!paths.contains(pathTemplate) || !paths[pathTemplate].contains(method))
        return pathTemplate + " " + method + ": not in the OpenAPI document";
    const json& responses = paths[pathTemplate][method]["responses"];
    const std::string code = std::to_string(status);
    if (!responses.contains(code))
        return pathTemplate + " " + method + ": status " + code + " is not documented";
    const json& response = resolve(responses[code]);
    const json& content = response.value("content", json::object());
    std::string type = contentType.substr(0, contentType.find(';'));
    if (!content.contains(type))
        return pathTemplate + " " + method + " " + code + ": content type " + type + " is not documented";
    if (type != "application/json")
        return {};
    const json value = json::parse(body, nullptr, false);
    if (value.is_discarded())
        return pathTemplate + " " + method + " " + code + ": the body is not JSON";
    return validate(content[type]["schema"], value, "$");
}

}  // namespace attrib::tests
