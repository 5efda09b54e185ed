#include "importerror.h"

namespace lanescope {

ImportError::ImportError(std::string file, uint64_t offset, const std::string &problem)
    : std::runtime_error(file + ": at byte " + std::to_string(offset) + ": " + problem)
    , m_file(std::move(file)), m_offset(offset), m_hasOffset(true), m_problem(problem)
{
}

ImportError::ImportError(std::string file, const std::string &problem)
    : std::runtime_error(file + ": " + problem), m_file(std::move(file)), m_problem(problem)
{
}

} // namespace lanescope
