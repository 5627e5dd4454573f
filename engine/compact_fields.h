// SPDX-License-Identifier: GPL-3.0-or-later
// Holders for fields that nearly every observation or event of a large bundle has in one form: an event's single
// observation id, an observation's absent metric fields. They keep that common form in place, without a heap block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

// After the standard headers: moc (AUTOMOC of the Service's headers) cannot parse <compare> read first.
#include "engine/name.h"

namespace attrib::engine {

/// An event's observation ids, used like a std::vector<std::uint64_t>. Nearly every event rests on one line: that
/// id is held in place; a second one moves them all to the heap. 16 bytes and no heap block instead of a vector's
/// 24 bytes and its 32-byte block, on every one of the tens of thousands of events a large bundle gives.
class ObservationIds {
public:
    using value_type = std::uint64_t;
    using iterator = std::uint64_t*;
    using const_iterator = const std::uint64_t*;

    ObservationIds() noexcept { m_one = 0; }
    ObservationIds(std::initializer_list<std::uint64_t> ids);
    explicit ObservationIds(const std::vector<std::uint64_t>& ids);
    ObservationIds(const ObservationIds& other);
    ObservationIds(ObservationIds&& other) noexcept;
    ObservationIds& operator=(const ObservationIds& other);
    ObservationIds& operator=(ObservationIds&& other) noexcept;
    ObservationIds& operator=(const std::vector<std::uint64_t>& ids);
    ObservationIds& operator=(std::initializer_list<std::uint64_t> ids);
    ~ObservationIds();

    iterator begin() noexcept { return data(); }
    iterator end() noexcept { return data() + m_size; }
    const_iterator begin() const noexcept { return data(); }
    const_iterator end() const noexcept { return data() + m_size; }
    std::size_t size() const noexcept { return m_size; }
    bool empty() const noexcept { return m_size == 0; }
    std::uint64_t front() const noexcept { return *data(); }
    std::uint64_t back() const noexcept { return data()[m_size - 1]; }
    std::uint64_t operator[](std::size_t i) const noexcept { return data()[i]; }
    std::uint64_t& operator[](std::size_t i) noexcept { return data()[i]; }

    void push_back(std::uint64_t id);
    /// Grows (new ids 0) or shrinks to `n` ids.
    void resize(std::size_t n);
    void clear() noexcept;
    std::vector<std::uint64_t> toVector() const { return {begin(), end()}; }

    friend bool operator==(const ObservationIds& a, const ObservationIds& b) noexcept;

private:
    bool inPlace() const noexcept { return m_capacity <= 1; }
    std::uint64_t* data() noexcept { return inPlace() ? &m_one : m_heap; }
    const std::uint64_t* data() const noexcept { return inPlace() ? &m_one : m_heap; }
    void reserve(std::size_t n);
    void assign(const std::uint64_t* first, std::size_t n);

    std::uint32_t m_size = 0;
    std::uint32_t m_capacity = 1;  ///< 1: the id (if any) is in m_one
    union {
        std::uint64_t m_one;
        std::uint64_t* m_heap;
    };
};

/// What a metric sample, or a record pre-normalized elsewhere (observations.jsonl), adds to its observation.
struct SampleFields {
    Name metric;
    double value = 0;
    std::map<std::string, std::string> labels;
};

/// An observation's SampleFields, on the heap only when some field is set: log lines, nearly every observation of
/// a large bundle, carry one pointer instead of the fields' 64 bytes. Copies copy the fields. Reading an unset box
/// reads empty fields.
class SampleBox {
public:
    SampleBox() = default;
    SampleBox(const SampleBox& other);
    SampleBox(SampleBox&&) noexcept = default;
    SampleBox& operator=(const SampleBox& other);
    SampleBox& operator=(SampleBox&&) noexcept = default;
    ~SampleBox();

    const SampleFields& operator*() const noexcept;
    const SampleFields* operator->() const noexcept { return &**this; }
    /// The fields to write, made empty on first use.
    SampleFields& edit();

private:
    std::unique_ptr<SampleFields> m_fields;
};

}  // namespace attrib::engine
