#include "argstore.h"

#include <stdexcept>

namespace lanescope {

ArgSetId ArgStore::add(std::span<const Arg> args)
{
    if (args.empty())
        return {};
    if (m_args.size() + args.size() >= UINT32_MAX)
        throw std::length_error("too many event arguments for one trace (more than 4 billion)");
    m_args.insert(m_args.end(), args.begin(), args.end());
    m_offsets.push_back(static_cast<uint32_t>(m_args.size()));
    return ArgSetId(static_cast<uint32_t>(m_offsets.size() - 2));
}

std::span<const Arg> ArgStore::args(ArgSetId id) const
{
    if (!id.isValid() || id.value + 1 >= m_offsets.size())
        return {};
    return std::span<const Arg>(m_args.data() + m_offsets[id.value], m_offsets[id.value + 1] - m_offsets[id.value]);
}

void ArgStore::reserve(size_t args, size_t sets)
{
    m_args.reserve(args);
    m_offsets.reserve(sets + 1);
}

void ArgStore::shrinkToFit()
{
    if (m_args.capacity() > 2 * m_args.size())
        m_args.shrink_to_fit();
    if (m_offsets.capacity() > 2 * m_offsets.size())
        m_offsets.shrink_to_fit();
}

} // namespace lanescope
