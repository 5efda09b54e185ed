#pragma once
// A gzip-compressed (or plain) JSON file read whole into a QJsonObject for tests that compute the
// expected numbers independently from a corpus trace's own events; empty when it cannot be read.
#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <zlib.h>

namespace lanescope::test {

inline QJsonObject loadGzipJson(const QString &path)
{
    gzFile f = gzopen(path.toLocal8Bit().constData(), "rb"); // zlib reads plain files as they are
    if (!f)
        return {};
    QByteArray bytes;
    char buf[1 << 16];
    int n = 0;
    while ((n = gzread(f, buf, sizeof buf)) > 0)
        bytes.append(buf, n);
    gzclose(f);
    return QJsonDocument::fromJson(bytes).object();
}

} // namespace lanescope::test
