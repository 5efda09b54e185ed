#pragma once
// The notes of one trace file or folder, and where they are kept: the sidecar
// "<name>.lanescope-notes.json" next to it (AnnotationSidecar's format), or, when that folder is not
// writable, "<per-user data folder>/lanescope/notes/<content fingerprint>.lanescope-notes.json"
// (the trace cache's ContentFingerprint key, so a copy of the same trace finds its notes). Both the
// GUI and the CLI use this class; every change is saved by the caller with save().
//
// Writes are atomic (QSaveFile: a temporary file renamed over the old one). A sidecar that does not
// parse is reported by open() (file, line and column or field, what was expected) and never
// overwritten: save() refuses with a message saying so until the file is fixed or moved away and
// the trace reopened; the edits of the session stay in memory.
#include "annotation.h"

#include <functional>
#include <string>
#include <vector>

namespace lanescope {

class Trace;

class AnnotationStore
{
public:
    static constexpr const char *kSuffix = ".lanescope-notes.json";

    struct Options
    {
        // Whether notes may be written into `dir` (default: QFileInfo::isWritable, i.e. access(2)).
        std::function<bool(const std::string &dir)> writable;
        // The per-user data folder (default: QStandardPaths GenericDataLocation + "/lanescope"; shared
        // by the GUI and the CLI, which have different application names).
        std::string dataDir;
    };

    AnnotationStore();
    explicit AnnotationStore(Options options);

    // "<dir>/<name>.lanescope-notes.json" for a file or folder (trailing slashes ignored).
    static std::string sidecarPath(const std::string &tracePath);
    static std::string defaultDataDir();

    // Chooses where the notes of `tracePath` live and reads them (a missing file is no error: no
    // notes yet). False with error() when the notes file does not parse, or, for a read-only folder,
    // when the input cannot be fingerprinted. Forgets the notes of the previous trace.
    bool open(const std::string &tracePath);
    void close();

    bool isOpen() const { return !m_tracePath.empty(); }
    const std::string &tracePath() const { return m_tracePath; }
    // Where save() writes.
    const std::string &path() const { return m_path; }
    // True when the trace's folder is read-only and the notes live in the data folder.
    bool usesDataFolder() const { return m_fallback; }
    // open()'s problem; save() refuses while the notes file is unreadable.
    const std::string &error() const { return m_error; }
    bool isUnreadable() const { return m_unreadable; }

    const std::vector<Annotation> &notes() const { return m_notes; }
    const Annotation *find(int id) const;
    // Adds a note with the next free id (returned).
    int add(Annotation note);
    // Replaces the note with the same id; false when there is none.
    bool update(const Annotation &note);
    bool remove(int id);
    // Re-finds every event note in `trace` (Annotation::resolve); returns how many were not found.
    size_t resolve(const Trace &trace);

    // Writes all notes (an empty list too) atomically. False with *error naming the file when the
    // notes file was unreadable (not overwritten) or cannot be written.
    bool save(std::string *error);

private:
    bool fail(std::string message);

    Options m_options;
    std::string m_tracePath;
    std::string m_path;
    bool m_fallback = false;
    bool m_unreadable = false;
    std::string m_error;
    std::vector<Annotation> m_notes;
};

} // namespace lanescope
