#pragma once
// The two ways a load stops early: a clear error naming the file, the position and what was expected,
// or the user's cancel. Thrown by importers, caught by TraceLoader (loadoptions.h's LoadResult).
#include <cstdint>
#include <stdexcept>
#include <string>

namespace lanescope {

// A load failure that names the file, the position and what was expected.
class ImportError : public std::runtime_error
{
public:
    ImportError(std::string file, uint64_t offset, const std::string &problem);
    ImportError(std::string file, const std::string &problem); // no meaningful offset
    const std::string &file() const { return m_file; }
    uint64_t offset() const { return m_offset; }
    bool hasOffset() const { return m_hasOffset; }
    const std::string &problem() const { return m_problem; }

private:
    std::string m_file;
    uint64_t m_offset = 0;
    bool m_hasOffset = false;
    std::string m_problem;
};

// Thrown from deep inside an importer when LoadOptions::cancel is set.
class LoadCancelled : public std::exception
{
public:
    const char *what() const noexcept override { return "load cancelled"; }
};

} // namespace lanescope
