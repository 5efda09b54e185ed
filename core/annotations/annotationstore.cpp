#include "annotationstore.h"

#include "annotationsidecar.h"

#include "util/contentfingerprint.h"
#include "util/qtext.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>
#include <stdexcept>

namespace lanescope {

namespace {


// The folder name or file name of a path, trailing slashes ignored.
QFileInfo traceInfo(const std::string &tracePath)
{
    QString p = QDir::cleanPath(qs(tracePath));
    return QFileInfo(p);
}

} // namespace

AnnotationStore::AnnotationStore() : AnnotationStore(Options()) {}

AnnotationStore::AnnotationStore(Options options) : m_options(std::move(options))
{
    if (!m_options.writable)
        m_options.writable = [](const std::string &dir) { return QFileInfo(qs(dir)).isWritable(); };
    if (m_options.dataDir.empty())
        m_options.dataDir = defaultDataDir();
}

std::string AnnotationStore::sidecarPath(const std::string &tracePath)
{
    const QFileInfo info = traceInfo(tracePath);
    return QDir(info.absolutePath()).filePath(info.fileName() + QLatin1String(kSuffix)).toStdString();
}

std::string AnnotationStore::defaultDataDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation).toStdString() + "/lanescope";
}

bool AnnotationStore::fail(std::string message)
{
    m_error = std::move(message);
    return false;
}

void AnnotationStore::close()
{
    m_tracePath.clear();
    m_path.clear();
    m_fallback = m_unreadable = false;
    m_error.clear();
    m_notes.clear();
}

bool AnnotationStore::open(const std::string &tracePath)
{
    close();
    m_tracePath = tracePath;
    const std::string sidecar = sidecarPath(tracePath);
    m_path = sidecar;
    // Where to read: the data folder's copy when the trace's folder is read-only and one exists,
    // else the sidecar (notes shipped next to a read-only trace are shown, and saved to the data folder).
    std::string readFrom = sidecar;
    if (!m_options.writable(traceInfo(tracePath).absolutePath().toStdString())) {
        ContentFingerprint fp;
        try {
            fp = ContentFingerprint::ofPath(tracePath);
        } catch (const std::exception &e) {
            m_unreadable = true;
            return fail(std::string("notes: the folder of ") + tracePath + " is read-only and the trace cannot be "
                        + "fingerprinted to keep its notes in the data folder: " + e.what());
        }
        m_fallback = true;
        m_path = m_options.dataDir + "/notes/" + fp.key() + kSuffix;
        if (QFileInfo::exists(qs(m_path)))
            readFrom = m_path;
    }
    QFile file(qs(readFrom));
    if (!file.exists())
        return true;
    if (!file.open(QIODevice::ReadOnly)) {
        m_unreadable = true;
        return fail(readFrom + ": cannot read: " + file.errorString().toStdString());
    }
    std::string error;
    if (!AnnotationSidecar::parse(file.readAll(), readFrom, &m_notes, &error)) {
        m_unreadable = true;
        m_notes.clear();
        return fail(error);
    }
    return true;
}

const Annotation *AnnotationStore::find(int id) const
{
    const auto it = std::find_if(m_notes.begin(), m_notes.end(), [id](const Annotation &a) { return a.id == id; });
    return it == m_notes.end() ? nullptr : &*it;
}

int AnnotationStore::add(Annotation note)
{
    int next = 1;
    for (const Annotation &a : m_notes)
        next = std::max(next, a.id + 1);
    note.id = next;
    m_notes.push_back(std::move(note));
    return next;
}

bool AnnotationStore::update(const Annotation &note)
{
    for (Annotation &a : m_notes)
        if (a.id == note.id) {
            a = note;
            return true;
        }
    return false;
}

bool AnnotationStore::remove(int id)
{
    return std::erase_if(m_notes, [id](const Annotation &a) { return a.id == id; }) > 0;
}

size_t AnnotationStore::resolve(const Trace &trace)
{
    size_t lost = 0;
    for (Annotation &a : m_notes)
        lost += a.resolve(trace) ? 0 : 1;
    return lost;
}

bool AnnotationStore::save(std::string *error)
{
    const auto fail = [&](const std::string &message) {
        if (error)
            *error = message;
        return false;
    };
    if (!isOpen())
        return fail("notes: no trace is open");
    if (m_unreadable)
        return fail("notes not saved: " + m_error + " — the file is left as it is; fix it or move it away and "
                    + "reopen the trace");
    if (m_fallback && !QDir().mkpath(QFileInfo(qs(m_path)).absolutePath()))
        return fail(m_path + ": cannot create the folder");
    QSaveFile file(qs(m_path));
    if (!file.open(QIODevice::WriteOnly))
        return fail(m_path + ": cannot write: " + file.errorString().toStdString());
    file.write(AnnotationSidecar::serialize(m_notes, traceInfo(m_tracePath).fileName().toStdString()));
    if (!file.commit())
        return fail(m_path + ": cannot write: " + file.errorString().toStdString());
    return true;
}

} // namespace lanescope
