// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compact_fields.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace attrib::engine {

ObservationIds::ObservationIds(std::initializer_list<std::uint64_t> ids)
    : ObservationIds()
{
    assign(ids.begin(), ids.size());
}

ObservationIds::ObservationIds(const std::vector<std::uint64_t>& ids)
    : ObservationIds()
{
    assign(ids.data(), ids.size());
}

ObservationIds::ObservationIds(const ObservationIds& other)
    : ObservationIds()
{
    assign(other.data(), other.m_size);
}

ObservationIds::ObservationIds(ObservationIds&& other) noexcept
    : m_size(other.m_size)
    , m_capacity(other.m_capacity)
{
    m_one = other.m_one;  // the id, or the heap block's address (the union's other member, same bytes)
    other.m_size = 0;
    other.m_capacity = 1;
    other.m_one = 0;
}

ObservationIds& ObservationIds::operator=(const ObservationIds& other)
{
    if (this != &other)
        assign(other.data(), other.m_size);
    return *this;
}

ObservationIds& ObservationIds::operator=(ObservationIds&& other) noexcept
{
    if (this != &other) {
        if (!inPlace())
            delete[] m_heap;
        m_size = other.m_size;
        m_capacity = other.m_capacity;
        m_one = other.m_one;
        other.m_size = 0;
        other.m_capacity = 1;
        other.m_one = 0;
    }
    return *this;
}

ObservationIds& ObservationIds::operator=(const std::vector<std::uint64_t>& ids)
{
    assign(ids.data(), ids.size());
    return *this;
}

ObservationIds& ObservationIds::operator=(std::initializer_list<std::uint64_t> ids)
{
    assign(ids.begin(), ids.size());
    return *this;
}

ObservationIds::~ObservationIds()
{
    if (!inPlace())
        delete[] m_heap;
}

void ObservationIds::reserve(std::size_t n)
{
    if (n <= m_capacity)
        return;
    if (n > std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("an event rests on more than 2^32 observations");
    const std::size_t capacity = std::max<std::size_t>({n, 2, std::size_t{m_capacity} * 2});
    const std::size_t bounded = std::min<std::size_t>(capacity, std::numeric_limits<std::uint32_t>::max());
    auto* block = new std::uint64_t[bounded];
    if (m_size)
        std::memcpy(block, data(), m_size * sizeof(std::uint64_t));
    if (!inPlace())
        delete[] m_heap;
    m_heap = block;
    m_capacity = static_cast<std::uint32_t>(bounded);
}

void ObservationIds::assign(const std::uint64_t* first, std::size_t n)
{
    m_size = 0;
    reserve(n);
    if (n)
        std::memmove(data(), first, n * sizeof(std::uint64_t));
    m_size = static_cast<std::uint32_t>(n);
}

void ObservationIds::push_back(std::uint64_t id)
{
    reserve(std::size_t{m_size} + 1);
    data()[m_size++] = id;
}

void ObservationIds::resize(std::size_t n)
{
    reserve(n);
    for (std::size_t i = m_size; i < n; ++i)
        data()[i] = 0;
    m_size = static_cast<std::uint32_t>(n);
}

void ObservationIds::clear() noexcept
{
    m_size = 0;
}

bool operator==(const ObservationIds& a, const ObservationIds& b) noexcept
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

SampleBox::SampleBox(const SampleBox& other)
    : m_fields(other.m_fields ? std::make_unique<SampleFields>(*other.m_fields) : nullptr)
{
}

SampleBox& SampleBox::operator=(const SampleBox& other)
{
    if (this != &other)
        m_fields = other.m_fields ? std::make_unique<SampleFields>(*other.m_fields) : nullptr;
    return *this;
}

SampleBox::~SampleBox() = default;

const SampleFields& SampleBox::operator*() const noexcept
{
    static const SampleFields none;
    return m_fields ? *m_fields : none;
}

SampleFields& SampleBox::edit()
{
    if (!m_fields)
        m_fields = std::make_unique<SampleFields>();
    return *m_fields;
}

}  // namespace attrib::engine
