#pragma once
// Whole files in and out for the tests: readFile gives a file's bytes (as std::string, or as
// QByteArray with readFile<QByteArray>), empty when it cannot be read; writeFile writes bytes
// (std::string, std::string_view, QByteArray, a literal), making the parent folder, and says whether
// all of them were written; writeFileIn writes `name` in a temporary folder and gives its path
// (empty on failure).
#include <QByteArray>
#include <QByteArrayView>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>

#include <string>
#include <type_traits>

namespace lanescope::test {

template <typename Bytes = std::string> Bytes readFile(const QString &path)
{
    static_assert(std::is_same_v<Bytes, std::string> || std::is_same_v<Bytes, QByteArray>);
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray b = f.readAll();
    if constexpr (std::is_same_v<Bytes, QByteArray>)
        return b;
    else
        return std::string(b.constData(), size_t(b.size()));
}

inline bool writeFile(const QString &path, QByteArrayView bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes.data(), bytes.size()) == bytes.size();
}

inline QString writeFileIn(const QTemporaryDir &dir, const QString &name, QByteArrayView bytes)
{
    const QString path = dir.filePath(name);
    return writeFile(path, bytes) ? path : QString();
}

} // namespace lanescope::test
