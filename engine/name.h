// SPDX-License-Identifier: GPL-3.0-or-later
// Name: an interned string for the fields every event repeats (its type, rule and symptom).
#pragma once

#include <compare>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>

namespace attrib::engine {

/// A string held once for the whole process and shared by every copy: one pointer instead of a std::string and
/// its heap block. An analysis keeps tens of thousands of events whose type, rule and symptom are the same few
/// hundred catalog strings; as std::string they were ~100 bytes of every event plus a heap block per long name.
/// Equal names are the same pointer. Interning takes a lock; copying, comparing and reading do not. Names are
/// never freed: their number is bounded by the catalog's strings and what its symptom templates expand to.
class Name {
public:
    Name() noexcept;
    Name(std::string_view text);  // NOLINT(google-explicit-constructor): a name is its text
    Name(const std::string& text)
        : Name(std::string_view(text))
    {
    }
    Name(const char* text)
        : Name(std::string_view(text))
    {
    }

    const std::string& str() const noexcept { return *m_text; }
    operator const std::string&() const noexcept { return *m_text; }  // NOLINT(google-explicit-constructor)
    operator std::string_view() const noexcept { return *m_text; }    // NOLINT(google-explicit-constructor)
    const char* c_str() const noexcept { return m_text->c_str(); }
    bool empty() const noexcept { return m_text->empty(); }
    std::size_t size() const noexcept { return m_text->size(); }
    void clear() noexcept;

    friend bool operator==(const Name& a, const Name& b) noexcept { return a.m_text == b.m_text; }
    friend bool operator==(const Name& a, std::string_view b) noexcept { return *a.m_text == b; }
    friend bool operator==(const Name& a, const std::string& b) noexcept { return *a.m_text == b; }
    friend bool operator==(const Name& a, const char* b) noexcept { return *a.m_text == b; }
    friend std::strong_ordering operator<=>(const Name& a, const Name& b) noexcept
    {
        return a.m_text == b.m_text ? std::strong_ordering::equal : a.m_text->compare(*b.m_text) <=> 0;
    }
    friend std::strong_ordering operator<=>(const Name& a, std::string_view b) noexcept
    {
        return std::string_view(*a.m_text).compare(b) <=> 0;
    }

    friend std::string operator+(const std::string& a, const Name& b) { return a + *b.m_text; }
    friend std::string operator+(std::string&& a, const Name& b) { return std::move(a) + *b.m_text; }
    friend std::string operator+(const char* a, const Name& b) { return a + *b.m_text; }
    friend std::string operator+(const Name& a, const std::string& b) { return *a.m_text + b; }
    friend std::string operator+(const Name& a, const char* b) { return *a.m_text + b; }
    friend std::ostream& operator<<(std::ostream& out, const Name& name);
    /// nlohmann::json (ordered or not) writes a name as its text.
    template <class Json> friend void to_json(Json& json, const Name& name) { json = *name.m_text; }

private:
    const std::string* m_text;
};

}  // namespace attrib::engine
