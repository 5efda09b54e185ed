// libarchive, loaded when first used rather than with the program.
//
// Archives are read for NEFF files (tar.gz), zipped and gzip/zstd-compressed traces, and written for the
// synthetic samples; most sessions open none. Linked normally, libarchive and the seven libraries it
// needs (nettle, acl, lzma, lz4, bz2, xml2 and their symbols: about 1,500 lookups) are loaded and bound
// by the dynamic loader before main() on every start, about 1 ms of each launch of the window (measured:
// a Qt Widgets program 8.7 -> 7.6 ms without it). Here the functions the importers call are defined
// with libarchive's own prototypes (archive.h) and forward to the library, which is opened (dlopen) on
// the first call. The definitions are hidden: they do not leave the library that holds them, and
// libarchive's own calls between its functions stay inside libarchive. Where it cannot be opened, the
// call throws an error that names the library and what the loader said; the importers report it
// against the file being read.
#include <archive.h>
#include <archive_entry.h>
#include <dlfcn.h>

#include <mutex>
#include <stdexcept>
#include <string>

namespace {

constexpr const char *kLibrary = "libarchive.so.13"; // Debian 12's libarchive13; the package depends on it

void *library()
{
    static void *handle = nullptr;
    static std::string error;
    static std::once_flag once;
    std::call_once(once, [] {
        handle = ::dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
        if (!handle)
            if (const char *why = ::dlerror())
                error = why;
    });
    if (!handle)
        throw std::runtime_error(std::string("reading and writing archives needs ") + kLibrary + ", which could not be loaded ("
                                 + (error.empty() ? std::string("no reason given") : error) + ")");
    return handle;
}

template <class Fn>
Fn real(const char *name)
{
    void *handle = library();
    ::dlerror();
    void *symbol = ::dlsym(handle, name);
    if (!symbol)
        throw std::runtime_error(std::string(kLibrary) + " has no " + name);
    return reinterpret_cast<Fn>(symbol);
}

} // namespace

#define LANESCOPE_FORWARD(Ret, name, params, args)                                                                \
    extern "C" __attribute__((visibility("hidden"))) Ret name params                                              \
    {                                                                                                             \
        static const auto fn = real<Ret(*) params>(#name);                                                        \
        return fn args;                                                                                           \
    }

// Reading.
LANESCOPE_FORWARD(struct archive *, archive_read_new, (void), ())
LANESCOPE_FORWARD(int, archive_read_free, (struct archive * a), (a))
LANESCOPE_FORWARD(int, archive_read_support_filter_all, (struct archive * a), (a))
LANESCOPE_FORWARD(int, archive_read_support_filter_gzip, (struct archive * a), (a))
LANESCOPE_FORWARD(int, archive_read_support_filter_zstd, (struct archive * a), (a))
LANESCOPE_FORWARD(int, archive_read_support_format_raw, (struct archive * a), (a))
LANESCOPE_FORWARD(int, archive_read_support_format_tar, (struct archive * a), (a))
LANESCOPE_FORWARD(int, archive_read_support_format_zip, (struct archive * a), (a))
LANESCOPE_FORWARD(int, archive_read_open_fd, (struct archive * a, int fd, size_t blockSize), (a, fd, blockSize))
LANESCOPE_FORWARD(int, archive_read_open_memory, (struct archive * a, const void *buffer, size_t size), (a, buffer, size))
LANESCOPE_FORWARD(int, archive_read_next_header, (struct archive * a, struct archive_entry **entry), (a, entry))
LANESCOPE_FORWARD(la_ssize_t, archive_read_data, (struct archive * a, void *buffer, size_t size), (a, buffer, size))
LANESCOPE_FORWARD(int, archive_read_data_block, (struct archive * a, const void **buffer, size_t *size, la_int64_t *offset),
                  (a, buffer, size, offset))
LANESCOPE_FORWARD(la_int64_t, archive_filter_bytes, (struct archive * a, int filter), (a, filter))
LANESCOPE_FORWARD(const char *, archive_error_string, (struct archive * a), (a))

// Writing.
LANESCOPE_FORWARD(struct archive *, archive_write_new, (void), ())
LANESCOPE_FORWARD(int, archive_write_free, (struct archive * a), (a))
LANESCOPE_FORWARD(int, archive_write_set_format_ustar, (struct archive * a), (a))
LANESCOPE_FORWARD(int, archive_write_add_filter_gzip, (struct archive * a), (a))
LANESCOPE_FORWARD(int, archive_write_set_filter_option, (struct archive * a, const char *module, const char *option, const char *value),
                  (a, module, option, value))
LANESCOPE_FORWARD(int, archive_write_open,
                  (struct archive * a, void *data, archive_open_callback *open, archive_write_callback *write, archive_close_callback *close),
                  (a, data, open, write, close))
LANESCOPE_FORWARD(int, archive_write_header, (struct archive * a, struct archive_entry *entry), (a, entry))
LANESCOPE_FORWARD(la_ssize_t, archive_write_data, (struct archive * a, const void *buffer, size_t size), (a, buffer, size))
LANESCOPE_FORWARD(int, archive_write_close, (struct archive * a), (a))

// Entries.
LANESCOPE_FORWARD(struct archive_entry *, archive_entry_new, (void), ())
LANESCOPE_FORWARD(void, archive_entry_free, (struct archive_entry * e), (e))
LANESCOPE_FORWARD(struct archive_entry *, archive_entry_clear, (struct archive_entry * e), (e))
LANESCOPE_FORWARD(const char *, archive_entry_pathname, (struct archive_entry * e), (e))
LANESCOPE_FORWARD(const char *, archive_entry_hardlink, (struct archive_entry * e), (e))
LANESCOPE_FORWARD(__LA_MODE_T, archive_entry_filetype, (struct archive_entry * e), (e))
LANESCOPE_FORWARD(la_int64_t, archive_entry_size, (struct archive_entry * e), (e))
LANESCOPE_FORWARD(int, archive_entry_size_is_set, (struct archive_entry * e), (e))
LANESCOPE_FORWARD(void, archive_entry_set_pathname, (struct archive_entry * e, const char *name), (e, name))
LANESCOPE_FORWARD(void, archive_entry_set_filetype, (struct archive_entry * e, unsigned int type), (e, type))
LANESCOPE_FORWARD(void, archive_entry_set_perm, (struct archive_entry * e, __LA_MODE_T perm), (e, perm))
LANESCOPE_FORWARD(void, archive_entry_set_size, (struct archive_entry * e, la_int64_t size), (e, size))
LANESCOPE_FORWARD(void, archive_entry_set_uname, (struct archive_entry * e, const char *name), (e, name))
LANESCOPE_FORWARD(void, archive_entry_set_gname, (struct archive_entry * e, const char *name), (e, name))
LANESCOPE_FORWARD(void, archive_entry_set_mtime, (struct archive_entry * e, time_t seconds, long nanoseconds), (e, seconds, nanoseconds))
