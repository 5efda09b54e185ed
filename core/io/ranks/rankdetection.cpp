#include "rankdetection.h"

#include "model/trace.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cctype>

namespace lanescope {

int64_t RankDetection::fromDistributedInfo(std::string_view json)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(json.data(), qsizetype(json.size())));
    if (!doc.isObject())
        return -1;
    const QJsonValue v = doc.object().value(QStringLiteral("rank"));
    if (v.isDouble()) {
        const double d = v.toDouble();
        // Below 2^63 only: converting a larger double to int64_t is undefined (fuzz_ranks found
        // "rank": 7203685477580807758080; tst_rankdetection::distributedInfo).
        return d >= 0 && d < 0x1p63 && d == double(int64_t(d)) ? int64_t(d) : -1;
    }
    if (v.isString()) { // "rank": "3" as some wrappers write it
        bool ok = false;
        const qlonglong n = v.toString().toLongLong(&ok);
        return ok && n >= 0 ? int64_t(n) : -1;
    }
    return -1;
}

int64_t RankDetection::fromHead(std::string_view head)
{
    const size_t key = head.find("\"distributedInfo\"");
    const size_t open = key == std::string_view::npos ? key : head.find('{', key);
    if (open == std::string_view::npos)
        return -1;
    size_t depth = 0;
    for (size_t at = open; at < head.size(); ++at) // nested pg_config objects
        if (head[at] == '{')
            ++depth;
        else if (head[at] == '}' && --depth == 0)
            return fromDistributedInfo(head.substr(open, at - open + 1));
    return -1;
}

int64_t RankDetection::fromFileName(std::string_view path)
{
    const std::string_view name = path.substr(path.find_last_of('/') == std::string_view::npos ? 0 : path.find_last_of('/') + 1);
    for (size_t at = 0; at + 4 < name.size(); ++at) {
        // "rank" as a word of its own start: at the beginning or after a separator, not inside "frank".
        if (at > 0 && std::isalpha(static_cast<unsigned char>(name[at - 1])))
            continue;
        if (std::tolower(static_cast<unsigned char>(name[at])) != 'r' || std::tolower(static_cast<unsigned char>(name[at + 1])) != 'a' ||
            std::tolower(static_cast<unsigned char>(name[at + 2])) != 'n' || std::tolower(static_cast<unsigned char>(name[at + 3])) != 'k')
            continue;
        size_t p = at + 4;
        if (p < name.size() && (name[p] == '-' || name[p] == '_'))
            ++p;
        size_t end = p;
        while (end < name.size() && end - p < 9 && std::isdigit(static_cast<unsigned char>(name[end])))
            ++end;
        if (end == p || (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))))
            continue;
        return std::stoll(std::string(name.substr(p, end - p)));
    }
    return -1;
}

RankOrigin RankDetection::fromPath(std::string_view path)
{
    if (const int64_t r = fromFileName(path); r >= 0)
        return {r, "file name"};
    const size_t slash = path.find_last_of('/');
    if (slash == std::string_view::npos || slash == 0)
        return {};
    if (const int64_t r = fromFileName(path.substr(0, slash)); r >= 0) // the folder's own name
        return {r, "folder name"};
    return {};
}

RankOrigin RankDetection::detect(const Trace &trace, std::string_view path)
{
    if (const std::string *info = trace.metadata().find("distributedInfo"))
        if (const int64_t r = fromDistributedInfo(*info); r >= 0)
            return {r, "distributedInfo.rank"};
    return fromPath(path);
}

} // namespace lanescope
