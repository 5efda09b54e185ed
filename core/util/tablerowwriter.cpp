#include "tablerowwriter.h"

#include <charconv>

namespace lanescope {

QJsonValue TableRowWriter::json(const Cell &cell)
{
    if (const auto *i = std::get_if<int64_t>(&cell))
        return QJsonValue(qint64(*i));
    if (const auto *d = std::get_if<double>(&cell))
        return QJsonValue(*d);
    if (const auto *s = std::get_if<std::string>(&cell))
        return QJsonValue(QString::fromStdString(*s));
    if (std::holds_alternative<std::nullptr_t>(cell))
        return QJsonValue(QJsonValue::Null);
    return QJsonValue(QJsonValue::Undefined);
}

std::string TableRowWriter::csvQuote(const std::string &text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

std::string TableRowWriter::csv(const Cell &cell)
{
    if (const auto *i = std::get_if<int64_t>(&cell))
        return std::to_string(*i);
    if (const auto *d = std::get_if<double>(&cell)) {
        char buf[64];
        const auto r = std::to_chars(buf, buf + sizeof buf, *d);
        return std::string(buf, r.ptr);
    }
    if (const auto *s = std::get_if<std::string>(&cell))
        return csvQuote(*s);
    return {};
}

} // namespace lanescope
