#pragma once
// Compression helpers for tests that build gzip / zstd inputs in memory: a streaming gzip writer (so bombs
// and huge members never exist uncompressed in memory), one-shot gzip and zstd.
#include <string>
#include <string_view>
#include <zlib.h>
#include <zstd.h>

namespace lanescope::test {

// Streaming gzip writer, so bombs and huge members never exist uncompressed in memory.
class Gzip
{
public:
    // Z_RLE: fast, and close to deflate's 1032:1 limit on runs of one byte (the bombs).
    explicit Gzip(int level = 1, int strategy = Z_DEFAULT_STRATEGY)
    {
        deflateInit2(&m_z, level, Z_DEFLATED, 15 + 16, 9, strategy);
    }
    ~Gzip() { deflateEnd(&m_z); }
    void add(std::string_view in) { run(in, Z_NO_FLUSH); }
    void addRepeated(char c, uint64_t n)
    {
        const std::string chunk(size_t(1) << 20, c);
        for (; n >= chunk.size(); n -= chunk.size())
            add(chunk);
        add(std::string_view(chunk).substr(0, size_t(n)));
    }
    std::string finish()
    {
        run({}, Z_FINISH);
        return std::move(m_out);
    }

private:
    void run(std::string_view in, int flush)
    {
        m_z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
        m_z.avail_in = uInt(in.size());
        char buf[1 << 16];
        do {
            m_z.next_out = reinterpret_cast<Bytef *>(buf);
            m_z.avail_out = sizeof buf;
            deflate(&m_z, flush);
            m_out.append(buf, sizeof buf - m_z.avail_out);
        } while (m_z.avail_out == 0 || (flush == Z_FINISH && m_z.avail_in > 0));
    }
    z_stream m_z{};
    std::string m_out;
};

inline std::string gzipOf(std::string_view s)
{
    Gzip g(6);
    g.add(s);
    return g.finish();
}

inline std::string zstdOf(std::string_view s, int level = 3)
{
    std::string out(ZSTD_compressBound(s.size()), '\0');
    out.resize(ZSTD_compress(out.data(), out.size(), s.data(), s.size(), level));
    return out;
}

} // namespace lanescope::test
